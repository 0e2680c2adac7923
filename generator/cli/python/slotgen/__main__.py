"""`python -m slotgen ARGS`: runs the `slotgen` binary installed with this package.

The wheel puts the binary in the environment's scripts directory (`bin/` of a virtual
environment, `~/.local/bin` of `pip install --user`, `TARGET/bin` of `pip install --target
TARGET`); this finds it there and replaces the process with it, so that its exit status and
signals are the caller's.
"""

import os
import sys
import sysconfig


def _candidates() -> "list[str]":
    """Where pip may have put the binary, most likely first."""
    exe = "slotgen" + (sysconfig.get_config_var("EXE") or "")
    dirs = [sysconfig.get_path("scripts")]
    if sys.version_info >= (3, 10):
        user_scheme = sysconfig.get_preferred_scheme("user")
    elif os.name == "nt":
        user_scheme = "nt_user"
    else:
        user_scheme = "posix_user"
    dirs.append(sysconfig.get_path("scripts", scheme=user_scheme))
    # pip install --target TARGET: the package is TARGET/slotgen, the binary TARGET/bin
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    dirs.append(os.path.join(package_root, "bin"))
    return [os.path.join(directory, exe) for directory in dirs]


def find_slotgen_bin() -> str:
    """The path of the installed `slotgen` binary.

    Raises FileNotFoundError naming every place looked at when none holds it.
    """
    candidates = _candidates()
    for path in candidates:
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    raise FileNotFoundError(
        "the slotgen binary is not where pip installs it ("
        + ", ".join(candidates)
        + "): reinstall the package (pip install --force-reinstall slotgen)"
        + " or install the binary with `cargo install slotgen-cli`"
    )


def main() -> None:
    try:
        slotgen = find_slotgen_bin()
    except FileNotFoundError as error:
        sys.stderr.write(f"slotgen: error: {error}\n")
        sys.exit(1)
    if sys.platform == "win32":
        import subprocess

        sys.exit(subprocess.run([slotgen, *sys.argv[1:]]).returncode)
    os.execv(slotgen, [slotgen, *sys.argv[1:]])


if __name__ == "__main__":
    main()
