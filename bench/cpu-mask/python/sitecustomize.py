"""bench/cpu-mask/python/sitecustomize.py — under `bench/cpu-mask/run` in XCR0 mode (PYTHONPATH
holds this directory), any Python that will import onnxruntime imports a copy whose XGETBV
reports no AVX-512 state (bench/cpu-mask/xcr0_patch.py), so deface's and rembg's ONNX Runtime
take their AVX2 kernels as Veil's does. The copy is made once per installed package (its path
and version name it) under $VEIL_CPU_MASK_DIR/python-ort, by copy + patch + rename, and put
first on sys.path. Nothing happens outside that mode or where onnxruntime is not installed.
"""
import hashlib
import importlib.util
import os
import shutil
import sys


def _use_patched_onnxruntime():
    root = os.environ.get("VEIL_CPU_MASK_DIR")
    if os.environ.get("VEIL_CPU_MASK_MODE") != "xcr0" or not root:
        return
    spec = importlib.util.find_spec("onnxruntime")
    if spec is None or not spec.submodule_search_locations:
        return
    package = list(spec.submodule_search_locations)[0]
    if package.startswith(os.path.join(root, "")):
        return
    key = hashlib.sha256(package.encode()).hexdigest()[:12]
    parent = os.path.join(root, "python-ort", key)
    if not os.path.isdir(parent):
        work = f"{parent}.{os.getpid()}"
        shutil.copytree(package, os.path.join(work, "onnxruntime"), symlinks=True)
        capi = os.path.join(work, "onnxruntime", "capi")
        path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "xcr0_patch.py")
        loader = importlib.util.spec_from_file_location("veil_xcr0_patch", path)
        xcr0_patch = importlib.util.module_from_spec(loader)
        loader.loader.exec_module(xcr0_patch)
        for name in os.listdir(capi):
            if name.startswith("onnxruntime_pybind11_state") and name.endswith(".so"):
                xcr0_patch.patch(os.path.join(capi, name), os.path.join(capi, name))
        try:
            os.rename(work, parent)
        except OSError:  # another process made it first
            shutil.rmtree(work, ignore_errors=True)
    sys.path.insert(0, parent)


_use_patched_onnxruntime()
