import Foundation
import VeilKit
import VeilVocabulary

let usage = """
usage: veil <command> [options]

commands:
  faces IMAGE... [--preset analysis|privacy] [--threshold T] [--json] [--preview OUT.jpg] [--threads N] [--max-pixels N]
      find faces; a table, or JSON with --json
  lift IMAGE... [-o OUT | --out-dir DIR] [--tap X,Y | --instances 1,3] [--crop] [--mask-only]
       [--effect remove|replace=PATH|color=HEX|highlight[=EV]|bokeh[=SIGMA]]
       [--model u2netp|u2net] [--json] [--threads N] [--jobs N]
       tuning: [--sides 320,384] [--mirror] [--threshold T] [--refine none|R,EPS|colour:R,EPS] [--no-stretch]
      cut the subjects out (PNG with transparent background), apply an effect round
      them (new background, colour, darkened or blurred background), or write their soft
      mask (--mask-only, 8-bit grey); --tap picks the instance under pixel X,Y
      (background: all); --json lists the instances (label, area, box in pixels).
      Without -o/--out-dir, writes NAME-lifted.png (NAME-mask.png) beside each input.
  blur INPUT... [-o OUT | --out-dir DIR] [--style pixelate[=S]|blur[=S]|solid[=#RRGGBB]|image=PATH]
       [--shape disc|ellipse|box] [--mask-scale K] [--threshold T] [--jobs N] [--quality Q]
       [--keep-metadata] [--preview] [--state PATH] [--add x,y,w,h] [--drop N]
       [--stroke "x1,y1 x2,y2 ...@width"] [--confirm] [--inputs-from FILE|-] [--shard I/N] [--force]
      cover every face; INPUT may be folders; state kept in OUTPUT.veil.json
  video INPUT -o OUTPUT [--style ...] [--shape ...] [--threshold T] [--detect-every K] [--grace N]
       [--detect-pixels N] [--crf N] [--preset P] [--x264-params K=V:...] [--codec NAME] [--no-audio] [--realtime]
       [--input-format F (e.g. v4l2)] [--output-format F] [--json FRAMES.json]
      cover every face in every frame of a file, stream or camera; audio kept
  video INPUT... --out-dir DIR [options]   many videos (folders recursed), one after another
  video INPUT --segment I/N -o PART [options]   the I-th (0-based) of N time ranges, cut at
       keyframes (or the array task from the environment, as for --shard)
  video join PART... -o OUTPUT   the parts, in order, into one file (nothing re-encoded)
  serve [--host 127.0.0.1] [--port 8080] [--token T] [--max-body 50MB] [--max-pixels 100M]
        [--concurrency N] [--timeout 30s] [--state-dir DIR]
      HTTP API (POST /v1/faces, /v1/blur, /v1/lift; GET /healthz, /metrics) and the web
      editor at /; a host other than loopback needs --token (bearer, on every /v1 request)
  status OUT_DIR [INPUT... | --inputs-from FILE] [--show N]
      where a sharded batch stands: done / skipped / failed / missing over every
      task's ledger; exit 0 only when every input is done
  models [list]                 what is installed in $VEIL_HOME, with sizes and checksums
  models install [NAME...]      install the runtime, models and sample photo (default set)
  models path NAME              print where an installed asset is

batches (blur, faces, lift, video): --inputs-from FILE|- (one path a line, streamed);
  --shard I/N (0-based) or, without it, the array task from SLURM_ARRAY_TASK_ID/COUNT,
  JOB_COMPLETION_INDEX + VEIL_SHARD_COUNT, AWS_BATCH_JOB_ARRAY_INDEX/SIZE; with --out-dir
  a ledger in OUT/.veil and finished items skipped on a re-run (--force: redo them)

environment: VEIL_HOME (default ${XDG_CACHE_HOME:-~/.cache}/veil)
"""

MemoryPolicy.returnLargeBlocksToSystem()

let words = Array(CommandLine.arguments.dropFirst())
let status: Int32
do {
    switch words.first {
    case "faces": status = try await FacesCommand.run(Array(words.dropFirst()))
    case "lift": status = try await LiftCommand.run(Array(words.dropFirst()))
    case "blur": status = try await BlurCommand.run(Array(words.dropFirst()))
    case "video": status = try await VideoCommand.run(Array(words.dropFirst()))
    case "serve": status = try await ServeCommand.run(Array(words.dropFirst()))
    case "status": status = try StatusCommand.run(Array(words.dropFirst()))
    case "models": status = try ModelsCommand.run(Array(words.dropFirst()))
    case "help", "--help", "-h": print(usage); status = 0
    case nil: printError(usage); status = 2
    case let other?: throw InputError("unknown command '\(other)'")
    }
} catch let error as InputError {
    printError("veil: \(error) (see `veil help`)")
    status = 2
} catch {
    printError("veil: \(error)")
    status = 1
}
exit(status)
