"""``python -m cudart_rs ARGS...``: the ``cudart-rs`` command installed with this package, run as
``cudart-rs ARGS...`` (it replaces this process: same pid, exit status and signals)."""

import os
import sys

from . import executable


def main():
    exe = executable()
    if exe is None:
        sys.exit(
            "python -m cudart_rs: the cudart-rs command of this installation is not in its scripts folder;"
            " reinstall the wheel (pip install --force-reinstall cudart_rs-*.whl)"
        )
    os.execv(exe, ["cudart-rs", *sys.argv[1:]])


if __name__ == "__main__":
    main()
