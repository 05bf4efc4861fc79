#!/usr/bin/env python3
"""bench/hard_faces_edge.py IN_DIR GT.json OUT_DIR FRACTION [cut-only]: each photo cropped by FRACTION
of its width and height on every side (JPEG quality 95), the labels clipped to the crop. Faces cut
by the crop with 40% or more still in it are judged on what is left (their box clipped); faces
with less are ignored; with cut-only the faces the crop left whole are ignored too, so the judge
counts only faces at the photo's edge. Writes OUT_DIR/NAME and OUT_DIR/gt.json (for bench/hard-faces)."""
import cv2, json, os, sys
src_dir, gt_path, out_dir, frac = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
gt = json.load(open(gt_path))['images']; os.makedirs(out_dir, exist_ok=True); out = {}; cut = 0
for name, g in gt.items():
    im = cv2.imread(os.path.join(src_dir, name)); h, w = im.shape[:2]
    x0, y0, x1, y1 = int(w * frac), int(h * frac), int(w * (1 - frac)), int(h * (1 - frac))
    cv2.imwrite(os.path.join(out_dir, name), im[y0:y1, x0:x1], [cv2.IMWRITE_JPEG_QUALITY, 95])
    faces = []
    for f in g.get('faces', []):
        bx0, by0, bx1, by1 = max(f['x'], x0), max(f['y'], y0), min(f['x'] + f['w'], x1), min(f['y'] + f['h'], y1)
        if bx1 <= bx0 or by1 <= by0: continue
        vis = (bx1 - bx0) * (by1 - by0) / (f['w'] * f['h'])
        d = dict(f); d['x'], d['y'], d['w'], d['h'] = bx0 - x0, by0 - y0, bx1 - bx0, by1 - by0
        if vis < 0.999:
            if vis < 0.4: d['ignore'] = True
            else: cut += 1
        elif sys.argv[5:] == ['cut-only']: d['ignore'] = True
        faces.append(d)
    out[name] = {'faces': faces}
json.dump({'images': out}, open(os.path.join(out_dir, 'gt.json'), 'w')); print('cut faces', cut, file=sys.stderr)
