//! The kinds of memory and handles the reports name, the directions and ends of copies, and
//! the memory totals: their order is the record's ([`crate::record`]).

/// The kinds of handles the observer tells apart (an argument's, a handle it made).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum H {
    Stream,
    Event,
    Array,
    Mipmapped,
    Graph,
    GraphExec,
    GraphNode,
    Pool,
    Kernel,
    Library,
    Function,
    UserObject,
    Other,
}

impl H {
    pub fn label(self) -> &'static str {
        match self {
            H::Stream => "stream",
            H::Event => "event",
            H::Array => "array",
            H::Mipmapped => "mipmapped array",
            H::Graph => "graph",
            H::GraphExec => "graph exec",
            H::GraphNode => "graph node",
            H::Pool => "pool",
            H::Kernel => "kernel",
            H::Library => "library",
            H::Function => "function",
            H::UserObject => "user object",
            H::Other => "handle",
        }
    }
}

/// What an allocation or handle is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Device,
    Pitched,
    Device3D,
    Async,
    Managed,
    Pinned,
    Registered,
    Array,
    Mipmapped,
    Stream,
    Event,
    Pool,
    Graph,
    GraphExec,
    Library,
}

impl Kind {
    pub const ALL: [Kind; 15] = [
        Kind::Device,
        Kind::Pitched,
        Kind::Device3D,
        Kind::Async,
        Kind::Managed,
        Kind::Pinned,
        Kind::Registered,
        Kind::Array,
        Kind::Mipmapped,
        Kind::Stream,
        Kind::Event,
        Kind::Pool,
        Kind::Graph,
        Kind::GraphExec,
        Kind::Library,
    ];

    /// An address range (memory), rather than a handle.
    pub fn is_memory(self) -> bool {
        matches!(
            self,
            Kind::Device
                | Kind::Pitched
                | Kind::Device3D
                | Kind::Async
                | Kind::Managed
                | Kind::Pinned
                | Kind::Registered
        )
    }

    /// Memory of the host (a leak of it names no device).
    pub fn on_host(self) -> bool {
        matches!(self, Kind::Pinned | Kind::Registered)
    }

    pub fn label(self) -> &'static str {
        match self {
            Kind::Device => "device memory",
            Kind::Pitched => "pitched device memory",
            Kind::Device3D => "3D device memory",
            Kind::Async => "stream-ordered device memory",
            Kind::Managed => "managed memory",
            Kind::Pinned => "pinned host memory",
            Kind::Registered => "registered host memory",
            Kind::Array => "array",
            Kind::Mipmapped => "mipmapped array",
            Kind::Stream => "stream",
            Kind::Event => "event",
            Kind::Pool => "memory pool",
            Kind::Graph => "graph",
            Kind::GraphExec => "executable graph",
            Kind::Library => "library",
        }
    }

    /// The handle kind of a handle allocation.
    pub fn handle(self) -> Option<H> {
        Some(match self {
            Kind::Array => H::Array,
            Kind::Mipmapped => H::Mipmapped,
            Kind::Stream => H::Stream,
            Kind::Event => H::Event,
            Kind::Pool => H::Pool,
            Kind::Graph => H::Graph,
            Kind::GraphExec => H::GraphExec,
            Kind::Library => H::Library,
            _ => return None,
        })
    }

    /// Objects of the device's primary context, which `cudaDeviceReset` destroys.
    pub fn dies_with_context(self) -> bool {
        !matches!(self, Kind::Graph | Kind::GraphExec | Kind::Library)
    }

    /// The memory total it counts in (an index of [`HELD`]).
    pub fn held(self) -> Option<usize> {
        Some(match self {
            Kind::Device | Kind::Pitched | Kind::Device3D | Kind::Async => 0,
            Kind::Managed => 1,
            Kind::Pinned => 2,
            Kind::Registered => 3,
            Kind::Array | Kind::Mipmapped => 4,
            _ => return None,
        })
    }

    /// The kind of number `i` (`kind as usize`).
    pub fn from_index(i: usize) -> Option<Kind> {
        Kind::ALL.get(i).copied()
    }
}

/// The memory totals the summary lists (held at exit, and at the peak).
pub const HELD: [&str; 5] = ["device", "managed", "pinned host", "registered host", "arrays"];

/// The direction of a copy.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    H2D,
    D2H,
    D2D,
    H2H,
    Peer,
}

impl Dir {
    /// In the order the summary lists them.
    pub const ALL: [Dir; 5] = [Dir::H2D, Dir::D2H, Dir::D2D, Dir::H2H, Dir::Peer];

    pub fn label(self) -> &'static str {
        match self {
            Dir::H2D => "HtoD",
            Dir::D2H => "DtoH",
            Dir::D2D => "DtoD",
            Dir::H2H => "HtoH",
            Dir::Peer => "peer",
        }
    }

    /// The direction of a copy of `cudaMemcpyKind` `kind` (by the memory when the kind is
    /// `cudaMemcpyDefault` or invalid; managed memory counts as device memory there).
    pub fn of(kind: i64, src: End, dst: End) -> Dir {
        match kind {
            0 => Dir::H2H,
            1 => Dir::H2D,
            2 => Dir::D2H,
            3 => Dir::D2D,
            _ => match (src.host(), dst.host()) {
                (true, true) => Dir::H2H,
                (true, false) => Dir::H2D,
                (false, true) => Dir::D2H,
                (false, false) => Dir::D2D,
            },
        }
    }
}

/// The memory at one end of a copy.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum End {
    Pageable,
    Pinned,
    Managed,
    Device,
    Array,
}

impl End {
    pub const ALL: [End; 5] = [End::Pageable, End::Pinned, End::Managed, End::Device, End::Array];

    pub fn of(k: Kind) -> End {
        match k {
            Kind::Pinned | Kind::Registered => End::Pinned,
            Kind::Managed => End::Managed,
            Kind::Array | Kind::Mipmapped => End::Array,
            _ => End::Device,
        }
    }

    fn host(self) -> bool {
        matches!(self, End::Pageable | End::Pinned)
    }

    pub fn label(self) -> &'static str {
        match self {
            End::Pageable => "pageable",
            End::Pinned => "pinned",
            End::Managed => "managed",
            End::Device => "device",
            End::Array => "array",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directions_and_orders() {
        assert_eq!(Dir::of(4, End::Pageable, End::Device), Dir::H2D);
        assert_eq!(Dir::of(4, End::Managed, End::Pinned), Dir::D2H);
        assert_eq!(Dir::of(4, End::Pinned, End::Pageable), Dir::H2H);
        assert_eq!(Dir::of(1, End::Device, End::Device), Dir::H2D);
        for (i, k) in Kind::ALL.iter().enumerate() {
            assert_eq!(*k as usize, i);
            assert_eq!(Kind::from_index(i), Some(*k));
        }
        for (i, d) in Dir::ALL.iter().enumerate() {
            assert_eq!(*d as usize, i);
        }
        for (i, e) in End::ALL.iter().enumerate() {
            assert_eq!(*e as usize, i);
        }
    }
}
