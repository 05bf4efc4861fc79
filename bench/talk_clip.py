"""A talk-like clip: shared/tools/make_cuts_clip.py with a zoom and a centre per shot (CX, CY as fractions of the
photo), and each face's id kept across shots (by photo and face), so the same person is filmed in several shots at
several sizes, for `veil video`'s proposal of people (judge: bench/person_purity.py).
The clips of docs/design/video-tracking.md#the-same-person-across-cuts (GT bench/data/unlabeled-reference.json,
IMAGE_DIR shared/data/faces-dev/unlabeled):
  A, seed 3: 23.jpg:40:shake:0.8:0.5:0.5 23.jpg:30:pan:1.6:0.71:0.72 9.jpg:30:shake:1:0.5:0.5 23.jpg:30:shake:1.6:0.3:0.3
             2.jpg:25:pan:1:0.5:0.5 9.jpg:25:shake:1.8:0.3:0.45 23.jpg:25:shake:0.6:0.5:0.5 12.jpg:25:shake:0.8:0.5:0.5
  B, seed 5: 9.jpg:30:shake:0.7:0.5:0.5 23.jpg:30:pan:2.0:0.24:0.24 9.jpg:30:shake:2.2:0.23:0.53 12.jpg:30:shake:1:0.5:0.5
             9.jpg:30:pan:1.3:0.6:0.4 23.jpg:30:shake:0.7:0.5:0.5
usage: talk_clip.py GT.json IMAGE_DIR OUT.mp4 SEED NAME:FRAMES:KIND:ZOOM:CX:CY ..."""
import json, math, os, subprocess, sys
import numpy as np
from PIL import Image, ImageFilter
GT = json.load(open(sys.argv[1]))['images']; D = sys.argv[2]; out = sys.argv[3]
fw, fh, fps = 960, 540, 25
shots = [a.split(':') for a in sys.argv[5:]]
p = subprocess.Popen(['ffmpeg', '-v', 'error', '-y', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', f'{fw}x{fh}', '-r', str(fps), '-i', '-',
                      '-c:v', 'libx264', '-preset', 'fast', '-crf', '17', '-pix_fmt', 'yuv420p', '-g', '250', out], stdin=subprocess.PIPE)
rng = np.random.default_rng(int(sys.argv[4]))
frames = []; k = 0; cuts = []; names = {}
for name, n, kind, zoom, fx, fy in shots:
    n = int(n); zoom = float(zoom); fx = float(fx); fy = float(fy)
    im = Image.open(os.path.join(D, name)).convert('RGB'); W, H = im.size
    gt = [f for f in GT[name]['faces'] if not f.get('invalid', f.get('ignore', False))]
    cuts.append(k)
    s = max(fw / W, fh / H) * 1.15 * zoom
    jx = jy = 0.0
    for i in range(n):
        t = i / max(1, n - 1)
        if kind == 'shake':
            jx = 0.6 * jx + rng.normal(0, 9); jy = 0.6 * jy + rng.normal(0, 6)
            a = math.radians(2.5 * math.sin(i * 0.45) + rng.normal(0, 0.4))
            cx, cy = W * fx + jx / s, H * fy + jy / s
        else:
            a = 0.0; cx, cy = W * (fx - 0.05 + 0.1 * t), H * fy
        ca, sa = math.cos(a), math.sin(a)
        A = (ca / s, -sa / s, cx - (ca * fw / 2 - sa * fh / 2) / s,
             sa / s, ca / s, cy - (sa * fw / 2 + ca * fh / 2) / s)
        fr = im.transform((fw, fh), Image.AFFINE, A, resample=Image.BICUBIC, fillcolor=(0, 0, 0))
        if kind == 'shake' and i % 9 == 4: fr = fr.filter(ImageFilter.BoxBlur(3))
        p.stdin.write(np.asarray(fr).tobytes())
        faces = []; ids = []
        for q, f in enumerate(gt):
            pts = []
            for (x, y) in [(f['x'], f['y']), (f['x'] + f['w'], f['y']), (f['x'], f['y'] + f['h']), (f['x'] + f['w'], f['y'] + f['h'])]:
                dx, dy = (x - cx) * s, (y - cy) * s
                pts.append((ca * dx + sa * dy + fw / 2, -sa * dx + ca * dy + fh / 2))
            xs = [q[0] for q in pts]; ys = [q[1] for q in pts]
            x0, y0, x1, y1 = min(xs), min(ys), max(xs), max(ys)
            if x0 >= 0 and y0 >= 0 and x1 <= fw and y1 <= fh:
                faces.append([round(x0, 1), round(y0, 1), round(x1 - x0, 1), round(y1 - y0, 1)])
                ids.append(names.setdefault((name, q), len(names)))
        frames.append({'frame': k, 'faces': faces, 'ids': ids}); k += 1
p.stdin.close(); p.wait()
json.dump({'source': 'talk-like: ' + ' '.join(sys.argv[5:]), 'format': 'boxes [x,y,w,h] top-left; ids: person across shots', 'cuts': cuts, 'frames': frames},
          open(out.replace('.mp4', '.json'), 'w'))
print(k, 'frames, cuts at', cuts, ',', sum(len(f['faces']) for f in frames), 'face-frames,', len(names), 'people; per shot:', [len(frames[c]['faces']) for c in cuts])
