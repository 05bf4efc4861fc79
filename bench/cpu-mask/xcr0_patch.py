"""bench/cpu-mask/xcr0_patch.py — a copy of a shared library (or program) whose XGETBV reports
no AVX-512 state: its CPU dispatch then takes the AVX2 kernels on an AVX-512 VNNI machine.

    python3 xcr0_patch.py IN OUT        writes OUT (via OUT.tmp + rename), prints the sites patched
    patch(IN, OUT)                      the same from Python (python/sitecustomize.py)

Why: CPUID faulting (bench/cpu-mask/avx2.c) is the exact mask, but many VMs lack it. Every
x86 dispatcher that matters here asks the OS, through XGETBV's XCR0, whether the ZMM
registers' state is enabled before using AVX-512 (ONNX Runtime's MLAS and cpuinfo, glibc):
with XCR0 bits 5-7 clear, AVX-512 and AVX-512 VNNI are not used, whatever CPUID says.
This rewrites each XGETBV (0F 01 D0), found by disassembly (objdump -d), as `mov al, 7; nop`
(B0 07 90): XCR0 reads x87 + SSE + AVX state and nothing more (the upper bits of EAX and EDX
keep what they held; no feature this machine's CPUID offers is decided by them). No stack
or other register is touched. Exits 1 if no XGETBV is found or the bytes are not where
objdump says.
"""
import os
import re
import subprocess
import sys


def patch(src, dst):
    """Writes the patched copy of src to dst (they may be the same path); returns the sites."""
    data = bytearray(open(src, "rb").read())
    # Section file offsets: an address in .text maps to (address - VMA) + file offset.
    sections = []
    for line in subprocess.run(["objdump", "-h", src], check=True, capture_output=True, text=True).stdout.splitlines():
        f = line.split()
        if len(f) >= 6 and f[0].isdigit():
            sections.append((int(f[3], 16), int(f[2], 16), int(f[5], 16)))  # vma, size, file offset
    sites = []
    dis = subprocess.run(["objdump", "-d", "--no-show-raw-insn", src], check=True, capture_output=True, text=True).stdout
    for m in re.finditer(r"^\s*([0-9a-f]+):\s+xgetbv\s*$", dis, re.M):
        address = int(m[1], 16)
        offset = next((address - vma + off for vma, size, off in sections if vma <= address < vma + size), None)
        if offset is None or data[offset:offset + 3] != b"\x0f\x01\xd0":
            sys.exit(f"xcr0_patch: {src}: no XGETBV bytes at {address:#x}")
        data[offset:offset + 3] = b"\xb0\x07\x90"
        sites.append(address)
    if not sites:
        sys.exit(f"xcr0_patch: {src}: no XGETBV found")
    with open(dst + ".tmp", "wb") as out:
        out.write(data)
    os.chmod(dst + ".tmp", os.stat(src).st_mode)
    os.replace(dst + ".tmp", dst)
    return sites


if __name__ == "__main__":
    src, dst = sys.argv[1], sys.argv[2]
    sites = patch(src, dst)
    print(f"{os.path.basename(src)}: {len(sites)} XGETBV patched at " + ", ".join(f"{a:#x}" for a in sites))
