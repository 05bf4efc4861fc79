"""A talk-like clip: shared/tools/make_cuts_clip.py with a zoom and a centre per shot (CX, CY as fractions of the
photo), and each face's id kept across shots (by photo and face), so the same person is filmed in several shots at
several sizes, for `veil video`'s proposal of people (judge: bench/person_purity.py).
The clips of docs/design/video-tracking.md#the-same-person-across-cuts (GT bench/data/unlabeled-reference.json,
IMAGE_DIR shared/data/faces-dev/unlabeled):
  A, seed 3: 23.jpg:40:shake:0.8:0.5:0.5 23.jpg:30:pan:1.6:0.71:0.72 9.jpg:30:shake:1:0.5:0.5 23.jpg:30:shake:1.6:0.3:0.3
             2.jpg:25:pan:1:0.5:0.5 9.jpg:25:shake:1.8:0.3:0.45 23.jpg:25:shake:0.6:0.5:0.5 12.jpg:25:shake:0.8:0.5:0.5
  B, seed 5: 9.jpg:30:shake:0.7:0.5:0.5 23.jpg:30:pan:2.0:0.24:0.24 9.jpg:30:shake:2.2:0.23:0.53 12.jpg:30:shake:1:0.5:0.5
             9.jpg:30:pan:1.3:0.6:0.4 23.jpg:30:shake:0.7:0.5:0.5
With --hands HANDS.json (bench/data/talk-hands.json) the labels also hold each frame's hands (frames[i].hands, boxes
cut to the frame) and the faces the frame cuts (frames[i].cutFaces, cut to it: faces, but not judged for cover), the photos' false reference faces are left out (notFaces), and a shot ending in :gesture has a hand
pasted beside its largest face, moving and turning as a speaker's hand does (the hand of 23.jpg, cut out by its
colour), for bench/hand_tracks.py (which tracks sit on a hand). The clip H of
docs/design/video-tracking.md#hands-are-not-faces, seed 7:
  23.jpg:30:shake:1.7:0.72:0.27:gesture 24.jpg:30:shake:1:0.5:0.5 23.jpg:30:pan:0.8:0.5:0.5 5.jpg:25:shake:1:0.5:0.45
  23.jpg:30:shake:1.9:0.72:0.2:gesture 24.jpg:30:shake:1.8:0.45:0.55 13.jpg:25:shake:1:0.5:0.5
  23.jpg:30:shake:1.2:0.65:0.33:gesture
usage: talk_clip.py [--hands HANDS.json] GT.json IMAGE_DIR OUT.mp4 SEED NAME:FRAMES:KIND:ZOOM:CX:CY[:gesture] ..."""
import json, math, os, subprocess, sys
import numpy as np
from PIL import Image, ImageFilter
args = sys.argv[1:]
HANDS = {'hands': {}, 'notFaces': {}}
if args[0] == '--hands': HANDS = json.load(open(args[1])); args = args[2:]
sys.argv = sys.argv[:1] + args
GT = json.load(open(sys.argv[1]))['images']; D = sys.argv[2]; out = sys.argv[3]
fw, fh, fps = 960, 540, 25
shots = [(a.split(':') + [''])[:7] for a in sys.argv[5:]]

def hand_sprite():
    """The hand of 23.jpg (on the scrubs, below the stethoscope), cut out: skin is redder than the blue cloth and lighter than the tube."""
    im = Image.open(os.path.join(D, '23.jpg')).convert('RGB').crop((648, 518, 775, 640))
    a = np.asarray(im).astype(int); r, g, b = a[..., 0], a[..., 1], a[..., 2]
    m = ((r > b + 12) & (r > 70)).astype(np.uint8) * 255
    mask = Image.fromarray(m).filter(ImageFilter.MedianFilter(5)).filter(ImageFilter.GaussianBlur(1))
    return im, mask
SPRITE = hand_sprite()

def to_frame(x, y, cx, cy, s, ca, sa):
    dx, dy = (x - cx) * s, (y - cy) * s
    return ca * dx + sa * dy + fw / 2, -sa * dx + ca * dy + fh / 2
p = subprocess.Popen(['ffmpeg', '-v', 'error', '-y', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', f'{fw}x{fh}', '-r', str(fps), '-i', '-',
                      '-c:v', 'libx264', '-preset', 'fast', '-crf', '17', '-pix_fmt', 'yuv420p', '-g', '250', out], stdin=subprocess.PIPE)
rng = np.random.default_rng(int(sys.argv[4]))
frames = []; k = 0; cuts = []; names = {}
for name, n, kind, zoom, fx, fy, extra in shots:
    n = int(n); zoom = float(zoom); fx = float(fx); fy = float(fy)
    im = Image.open(os.path.join(D, name)).convert('RGB'); W, H = im.size
    skip = set(HANDS['notFaces'].get(name, []))
    gt = [f for q, f in enumerate(GT[name]['faces']) if not f.get('invalid', f.get('ignore', False)) and q not in skip]
    photo_hands = HANDS['hands'].get(name, [])
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
        faces = []; ids = []; cut_faces = []
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
            elif HANDS['hands'] and min(fw, x1) - max(0, x0) > 8 and min(fh, y1) - max(0, y0) > 8:
                cut_faces.append([round(max(0, x0), 1), round(max(0, y0), 1), round(min(fw, x1) - max(0, x0), 1), round(min(fh, y1) - max(0, y0), 1)])
        hands = []
        for (x, y, w, h) in photo_hands:
            pts = [to_frame(px, py, cx, cy, s, ca, sa) for px, py in [(x, y), (x + w, y), (x, y + h), (x + w, y + h)]]
            hands.append([min(q[0] for q in pts), min(q[1] for q in pts), max(q[0] for q in pts), max(q[1] for q in pts)])
        if extra == 'gesture' and faces:
            # A speaker's hand beside the largest face: up and down, to and fro, turning, about the face's size.
            x, y, w, h = max(faces, key=lambda b: b[2] * b[3])
            hand, mask = SPRITE; side = 1.1 * h
            sc = side / max(hand.size); turn = 30 * math.sin(i * 0.31)
            size = (max(1, round(hand.size[0] * sc)), max(1, round(hand.size[1] * sc)))
            him, hm = (m.resize(size, Image.BICUBIC).rotate(turn, expand=True, resample=Image.BICUBIC) for m in (hand, mask))
            hx = x + w * (1.05 + 0.25 * math.sin(i * 0.23)) ; hy = y + h * (0.35 + 0.45 * math.sin(i * 0.17 + 1))
            fr.paste(him, (round(hx), round(hy)), hm)
            bb = hm.point(lambda v: 255 if v > 100 else 0).getbbox()
            if bb: hands.append([round(hx) + bb[0], round(hy) + bb[1], round(hx) + bb[2], round(hy) + bb[3]])
        cut = [[round(max(0, a), 1), round(max(0, b), 1), round(min(fw, c) - max(0, a), 1), round(min(fh, d) - max(0, b), 1)]
               for a, b, c, d in hands if min(fw, c) - max(0, a) > 2 and min(fh, d) - max(0, b) > 2]
        p.stdin.write(np.asarray(fr).tobytes())
        frames.append({'frame': k, 'faces': faces, 'ids': ids, 'hands': cut, 'cutFaces': cut_faces}); k += 1
p.stdin.close(); p.wait()
json.dump({'source': 'talk-like: ' + ' '.join(sys.argv[5:]), 'format': 'boxes [x,y,w,h] top-left; ids: person across shots', 'cuts': cuts, 'frames': frames},
          open(out.replace('.mp4', '.json'), 'w'))
print(k, 'frames, cuts at', cuts, ',', sum(len(f['faces']) for f in frames), 'face-frames,', len(names), 'people,',
      sum(len(f['hands']) for f in frames), 'hand-frames; per shot:', [len(frames[c]['faces']) for c in cuts])
