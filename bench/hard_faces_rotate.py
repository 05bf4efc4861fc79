#!/usr/bin/env python3
"""bench/hard_faces_rotate.py IN_DIR GT.json OUT_DIR ANGLE: each photo of GT.json turned by ANGLE degrees
(counter-clockwise, the canvas grown to hold it all, black corners; JPEG quality 95) and the labels
with it: each box keeps its size about its turned centre (the judge reads a box's central half,
which a turned face still fills). Writes OUT_DIR/NAME and OUT_DIR/gt.json (for bench/hard-faces)."""
import cv2, json, math, os, sys, numpy as np
src_dir, gt_path, out_dir, angle = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
gt = json.load(open(gt_path))['images']; os.makedirs(out_dir, exist_ok=True); out = {}
for name, g in gt.items():
    im = cv2.imread(os.path.join(src_dir, name)); h, w = im.shape[:2]
    M = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    c, s = abs(M[0, 0]), abs(M[0, 1]); nw, nh = int(w * c + h * s + 0.5), int(w * s + h * c + 0.5)
    M[0, 2] += nw / 2 - w / 2; M[1, 2] += nh / 2 - h / 2
    r = cv2.warpAffine(im, M, (nw, nh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    cv2.imwrite(os.path.join(out_dir, name), r, [cv2.IMWRITE_JPEG_QUALITY, 95])
    faces = []
    for f in g.get('faces', []):
        cx, cy = f['x'] + f['w'] / 2, f['y'] + f['h'] / 2
        nx, ny = M[0, 0] * cx + M[0, 1] * cy + M[0, 2], M[1, 0] * cx + M[1, 1] * cy + M[1, 2]
        d = dict(f); d['x'], d['y'] = nx - f['w'] / 2, ny - f['h'] / 2; faces.append(d)
    out[name] = {'faces': faces}
json.dump({'images': out}, open(os.path.join(out_dir, 'gt.json'), 'w'))
