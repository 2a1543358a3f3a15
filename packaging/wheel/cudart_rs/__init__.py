"""cudart-rs from a wheel: where its CUDA runtime libraries and stand-in driver lie, and the
variables that run a process on them with the observation modes of ``cudart-rs run``, for
those who start processes themselves. The standard library only; nothing runs at import.

    import os, subprocess, cudart_rs
    cudart_rs.library(abi=13)         # .../site-packages/cudart_rs/lib/libcudart.so.13
    subprocess.run(["python3", "train.py"], env=os.environ | cudart_rs.environ(summary=True))
"""

import os
import pathlib
import sysconfig

__all__ = ["library", "standin", "executable", "environ"]

_LIB = pathlib.Path(__file__).resolve().parent / "lib"
_STANDIN = _LIB / "stand-in" / "libcuda.so.1"


def library(abi=13):
    """The path of this wheel's runtime library of the CUDA ``abi`` ABI: ``libcudart.so.13``
    (13) or ``libcudart.so.12`` (12), with NVIDIA's SONAME and symbol versions."""
    if abi not in (13, 12):
        raise ValueError(f"abi is 13 or 12, not {abi!r}")
    return str(_LIB / f"libcudart.so.{abi}")


def standin():
    """The path of the stand-in driver: a ``libcuda.so.1`` that keeps device memory in host
    memory and runs no kernels, to try programs on a machine without a GPU."""
    return str(_STANDIN)


def executable():
    """The ``cudart-rs`` command installed with this package (``None`` where it is not found):
    the scripts folder of the installation it came in (``bin/`` of a virtual environment, of
    ``pip install --user`` or of ``pip install --target``)."""
    here = pathlib.Path(__file__).resolve().parent
    dirs = [a / "bin" for a in list(here.parents)[:4]]
    for scheme in (None, f"{os.name}_user"):
        try:
            dirs.append(pathlib.Path(sysconfig.get_path("scripts", scheme) if scheme else sysconfig.get_path("scripts")))
        except KeyError:
            pass
    for d in dirs:
        exe = d / "cudart-rs"
        if exe.is_file() and os.access(exe, os.X_OK):
            return str(exe)
    return None


def _value(v, name):
    if v is True:
        return "1"
    if isinstance(v, (str, os.PathLike)):
        return os.fspath(v)
    raise TypeError(f"{name} is True or a string, not {v!r}")


def environ(
    summary=False,
    trace=False,
    leaks=False,
    timeline=None,
    gpu_spans=False,
    checked=False,
    abi="both",
    driver=None,
    standin=False,
):
    """The environment variables that run a process (and every process it starts) on this
    wheel's runtime, as a dict to merge into its environment: ``os.environ | environ(...)``.

    ``LD_PRELOAD`` names the runtime of ``abi`` (13, 12 or ``"both"``: each program takes the
    one it was built for) before what ``LD_PRELOAD`` already holds here. The observation modes
    (docs/observation.md) are those of ``cudart-rs run``, but each process reports on its own,
    at its exit:

    - ``summary``: ``True`` (to stderr) or a file path: calls, errors and times per function,
      bytes copied, memory held, kernel launches (``CUDART_RS_SUMMARY``);
    - ``trace``: ``True`` (every call) or a filter such as ``"warn"`` or ``"copy,launch"``
      (``CUDART_RS_TRACE``);
    - ``leaks``: ``True`` or ``"backtrace"``: what was never freed (``CUDART_RS_LEAKS``);
    - ``timeline``: a file path for a Chrome trace-event timeline, ``gpu_spans`` with the GPU's
      copies and kernels (``CUDART_RS_TIMELINE``);
    - ``checked``: handles and pointers checked before each call (``CUDART_RS_CHECKED``);
    - ``driver``: the path of a driver library instead of ``libcuda.so.1``, ``standin``: this
      wheel's stand-in driver (``CUDART_RS_DRIVER``).
    """
    abis = {13: (13,), 12: (12,), "both": (13, 12)}.get(abi)
    if abis is None:
        raise ValueError(f"abi is 13, 12 or 'both', not {abi!r}")
    preload = [library(a) for a in abis]
    if os.environ.get("LD_PRELOAD"):
        preload.append(os.environ["LD_PRELOAD"])
    env = {"LD_PRELOAD": ":".join(preload)}
    if summary:
        env["CUDART_RS_SUMMARY"] = _value(summary, "summary")
    if trace:
        env["CUDART_RS_TRACE"] = _value(trace, "trace")
    if leaks:
        if leaks not in (True, "backtrace"):
            raise ValueError(f"leaks is True or 'backtrace', not {leaks!r}")
        env["CUDART_RS_LEAKS"] = _value(leaks, "leaks")
    if timeline:
        env["CUDART_RS_TIMELINE"] = _value(timeline, "timeline") + (",gpu" if gpu_spans else "")
    elif gpu_spans:
        raise ValueError("gpu_spans needs a timeline")
    if checked:
        env["CUDART_RS_CHECKED"] = "1"
    if driver and standin:
        raise ValueError("driver or standin, not both")
    if standin:
        env["CUDART_RS_DRIVER"] = str(_STANDIN)
    elif driver:
        env["CUDART_RS_DRIVER"] = os.path.abspath(os.fspath(driver))
    return env
