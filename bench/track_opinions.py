#!/usr/bin/env python3
"""Second opinions on the sightings a covered video's state lists as tracks (and unsure), to choose what confirms a
sighting as a face: each track's most confident detected sighting is cut from its frame (a square of 2.5 faces round
it, at least 128 px) and given again to RetinaFace and CenterFace (`veil faces --json`, threshold 0.05); printed per
track, as JSON lines: the label under it (face, hand, elsewhere: as bench/hand_tracks.py decides; 'unlabelled' without
hands in the labels), its detections and best score, the two models' scores on the crop and RetinaFace's five landmarks
in face sides (x from the box's left, y from its top).
usage: track_opinions.py GT.json CLIP.mp4 STATE.veil.json VEIL [--unsure]"""
import json, os, subprocess, sys, tempfile
import numpy as np
from PIL import Image
from hand_tracks import Labels
sys.argv, unsure = [a for a in sys.argv if a != '--unsure'], '--unsure' in sys.argv
gt_path, clip, state_path, veil = sys.argv[1:5]
st = json.load(open(state_path)); W, H = st['source']['width'], st['source']['height']
labels = Labels(json.load(open(gt_path)), W, H)
raw = subprocess.run(['ffmpeg', '-v', 'error', '-i', clip, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], capture_output=True, check=True).stdout
video = np.frombuffer(raw, np.uint8).reshape(-1, H, W, 3)
work = tempfile.mkdtemp(); items = []
for part in ['tracks'] + (['unsure'] if unsure else []):
    for t in st.get(part, []):
        det = [s for s in t['frames'] if s[5]]
        if not det: continue
        f, x, y, w, h, _, score = max(det, key=lambda s: s[6])
        x, y, w, h = x * W, y * H, w * W, h * H
        side = max(128, 2.5 * max(w, h)); cx, cy = x + w / 2, y + h / 2
        box = (round(cx - side / 2), round(cy - side / 2), round(cx + side / 2), round(cy + side / 2))
        crop = Image.fromarray(video[int(f)]).crop(box)
        path = os.path.join(work, f'{part}-{t["id"]}.png'); crop.save(path)
        k, _ = labels.classify(t)
        items.append(dict(part=part, id=t['id'], kind=k if labels.hands else ('face' if k == 'face' else 'unlabelled'),
                          detections=len(det), best=score, person=t.get('person'), path=path,
                          face=(x - box[0], y - box[1], w, h)))
def opinions(model):
    out = subprocess.run([veil, 'faces', '--json', '--model', model, '--threshold', '0.05'] + [i['path'] for i in items],
                         capture_output=True, text=True).stdout
    return {os.path.basename(im['file']): im['faces'] for im in json.loads(out)['images']}
ret, cen = opinions('retinaface'), opinions('centerface')
for i in items:
    fx, fy, fw, fh = i['face']; name = os.path.basename(i['path'])
    def near(faces):
        m = [f for f in faces if abs(f['x'] + f['width'] / 2 - fx - fw / 2) < 0.5 * fw and abs(f['y'] + f['height'] / 2 - fy - fh / 2) < 0.5 * fh]
        return max(m, key=lambda f: f['confidence'], default=None)
    r, c = near(ret.get(name, [])), near(cen.get(name, []))
    i['retina'] = r['confidence'] if r else 0; i['center'] = c['confidence'] if c else 0
    if r and r.get('landmarks'):
        i['landmarks'] = [[round((px - r['x']) / r['width'], 3), round((py - r['y']) / r['height'], 3)] for px, py in r['landmarks']]
    del i['path']; del i['face']
    print(json.dumps(i))
