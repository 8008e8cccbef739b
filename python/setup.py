"""Build of the `acl` extension for pip (pyproject.toml): the C files of
this directory, linked against a built libacl_rt with an rpath to it.

Where libacl_rt and the headers are, first found wins:
  1. NPU_SIM_LIB_DIR (libacl_rt.so) and NPU_SIM_INCLUDE_DIR (acl/acl.h);
  2. the checkout NPU_SIM_ROOT (default: the parent of this directory):
     its build/lib and include, after `make user`;
  3. pkg-config acl_rt (after `make install`).
"""
import glob
import os
import re
import subprocess

from setuptools import Extension, setup

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.environ.get("NPU_SIM_ROOT", os.path.dirname(HERE))


def pkg_config(flag):
    try:
        out = subprocess.run(["pkg-config", flag, "acl_rt"], check=True,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             universal_newlines=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    dirs = [w[2:] for w in out.split() if w[:2] in ("-I", "-L")]
    return dirs[0] if dirs else None


def locate():
    inc = os.environ.get("NPU_SIM_INCLUDE_DIR")
    lib = os.environ.get("NPU_SIM_LIB_DIR")
    if not inc and os.path.isfile(os.path.join(ROOT, "include", "acl", "acl.h")):
        inc = os.path.join(ROOT, "include")
    if not lib and os.path.isfile(os.path.join(ROOT, "build", "lib", "libacl_rt.so")):
        lib = os.path.join(ROOT, "build", "lib")
    inc = inc or pkg_config("--cflags-only-I")
    lib = lib or pkg_config("--libs-only-L")
    if not inc or not os.path.isfile(os.path.join(inc, "acl", "acl.h")):
        raise SystemExit("npu-sim-acl: acl/acl.h not found: set NPU_SIM_INCLUDE_DIR "
                         "or NPU_SIM_ROOT (a checkout), or install acl_rt.pc")
    if not lib or not os.path.isfile(os.path.join(lib, "libacl_rt.so")):
        raise SystemExit("npu-sim-acl: libacl_rt.so not found: run 'make user' in the "
                         "checkout, or set NPU_SIM_LIB_DIR, or install acl_rt.pc")
    return os.path.abspath(inc), os.path.abspath(lib)


def version():
    """The package version of dkms.conf, as the library's pkg-config file."""
    try:
        with open(os.path.join(ROOT, "dkms.conf")) as f:
            m = re.search(r'^PACKAGE_VERSION="([^"]+)"', f.read(), re.M)
        if m:
            return m.group(1)
    except OSError:
        pass
    return "0"


INCLUDE_DIR, LIB_DIR = locate()
os.chdir(HERE)   # setuptools wants sources relative to setup.py
setup(
    version=version(),
    ext_modules=[Extension(
        "acl",
        sources=sorted(glob.glob("*.c")),
        depends=["pyacl.h"],
        include_dirs=[INCLUDE_DIR],
        library_dirs=[LIB_DIR],
        libraries=["acl_rt"],
        runtime_library_dirs=[LIB_DIR],
        extra_compile_args=["-std=gnu11", "-fvisibility=hidden",
                            "-Wno-missing-field-initializers"],
        define_macros=[("_GNU_SOURCE", None)],
    )],
)
