"""Hatchling build hook: compile the optional play kernel (`ombre_rules/kernel/src/*.c`, a CPython extension)
with the C compiler this Python was built with (`sysconfig`'s LDSHARED, or CC from the environment).

A wheel with the kernel is tagged for this Python and platform; where there is no compiler or no Python
headers, or the build fails, or OMBRE_KERNEL=0 is set, the wheel is pure Python (a warning says why) and the
package runs without the kernel, with the same results. An editable install gets the module built in place,
and so does `python hatch_build.py` (a source tree run as it is, as the tests run)."""
from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

try:
    from hatchling.builders.hooks.plugin.interface import BuildHookInterface
except ImportError:  # run as a script, where hatchling is not installed
    BuildHookInterface = object  # type: ignore[assignment,misc]

MODULE = "ombre_rules/kernel/_ckernel"
SOURCES = "ombre_rules/kernel/src"


def compile_kernel(root: Path, out_dir: Path) -> Path:
    """Build the extension module into `out_dir`; its path. Raises on any failure."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    ldshared = sysconfig.get_config_var("LDSHARED")
    include = sysconfig.get_paths()["include"]
    if not suffix or not ldshared:
        raise RuntimeError("this Python does not say how to link an extension module (no LDSHARED)")
    if not (Path(include) / "Python.h").is_file():
        raise RuntimeError(f"no Python headers in {include} (install the Python development package)")
    link = shlex.split(ldshared)
    cc = os.environ.get("CC")
    if cc:  # the compiler asked for, with the linker's own flags
        link = shlex.split(cc) + [a for a in link[1:] if a.startswith("-")]
    sources = sorted(str(p) for p in (root / SOURCES).glob("*.c"))
    out = out_dir / (Path(MODULE).name + suffix)
    cmd = link + shlex.split(sysconfig.get_config_var("CCSHARED") or "") + \
        ["-O2", "-std=c11", "-I", include, "-I", str(root / SOURCES), *sources, "-o", str(out)]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if run.returncode != 0 or not out.is_file():
        raise RuntimeError(f"{' '.join(cmd)}\n{run.stderr.strip()}")
    return out


class KernelHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict) -> None:
        self._tmp = None
        if self.target_name != "wheel":
            return
        if os.environ.get("OMBRE_KERNEL", "").strip() == "0":
            print("ombre_rules: OMBRE_KERNEL=0, the play kernel is not built", file=sys.stderr)
            return
        root = Path(self.root)
        editable = version == "editable"
        out_dir = root / Path(MODULE).parent if editable else Path(tempfile.mkdtemp(prefix="ombre-kernel-"))
        if not editable:
            self._tmp = out_dir
        try:
            built = compile_kernel(root, out_dir)
        except Exception as e:  # no compiler, no headers, a failed build: the package stays pure Python
            print(f"ombre_rules: the play kernel was not built, pure Python it is ({e})", file=sys.stderr)
            return
        if not editable:
            build_data["force_include"][str(built)] = f"{Path(MODULE).parent}/{built.name}"
            build_data["pure_python"] = False
            build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict, artifact_path: str) -> None:
        if self._tmp is not None:
            shutil.rmtree(self._tmp, ignore_errors=True)


if __name__ == "__main__":
    here = Path(__file__).resolve().parent
    print(compile_kernel(here, here / Path(MODULE).parent))
