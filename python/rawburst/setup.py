"""Puts librawburst into the wheel; everything else is in pyproject.toml.

The library comes from $RAWBURST_LIBRARY when set, else (in a checkout) `make -C <repository root> lib` builds it
(release, incrementally) and stages it in <repository root>/.build-lib/lib/, else (an sdist) the package's own copy.
"""

import os
import shutil
import subprocess
from pathlib import Path
from typing import Optional, Tuple

from setuptools import Distribution, setup
from setuptools.command.bdist_wheel import bdist_wheel
from setuptools.command.build_py import build_py

LIBRARY = "librawburst.so.1"
HERE = Path(__file__).resolve().parent
REPOSITORY = HERE.parents[1]


def library_to_bundle() -> Optional[Path]:
    """The library file to copy into the package, or None when the package already holds one."""
    explicit = os.environ.get("RAWBURST_LIBRARY")
    if explicit:
        return Path(explicit)
    if not (REPOSITORY / "Makefile").is_file():
        # Outside a checkout (an sdist): the library bundled in the package, or nothing to build it from.
        if (HERE / "rawburst" / LIBRARY).is_file():
            return None
        raise SystemExit(f"no {LIBRARY} to bundle: set RAWBURST_LIBRARY to its path (no rawburst checkout at "
                         f"{REPOSITORY} to build it from)")
    # In a checkout, always through make (incremental): a library left in the package by an earlier build is not
    # bundled as it is, it may be stale.
    subprocess.run(["make", "-C", str(REPOSITORY), "lib"], check=True)
    staged = [REPOSITORY / ".build-lib" / "lib" / LIBRARY, REPOSITORY / ".build-lib" / LIBRARY]
    for path in staged:
        if path.is_file():
            return path
    raise SystemExit(f"`make lib` left no {LIBRARY} in {' or '.join(str(p.parent) for p in staged)}")


class BuildWithLibrary(build_py):
    """build_py that also copies librawburst into the built package."""

    def run(self) -> None:
        super().run()
        source = library_to_bundle()
        if source is not None:
            target = Path(self.build_lib) / "rawburst" / LIBRARY
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)


class WithLibrary(Distribution):
    """A distribution holding a native library: its wheel is for this platform only."""

    def has_ext_modules(self) -> bool:
        return True


class PlatformWheel(bdist_wheel):
    """The platform's wheel for every Python 3 (the library is loaded with ctypes: no extension module)."""

    def get_tag(self) -> Tuple[str, str, str]:
        return "py3", "none", super().get_tag()[2]


setup(distclass=WithLibrary, cmdclass={"build_py": BuildWithLibrary, "bdist_wheel": PlatformWheel})
