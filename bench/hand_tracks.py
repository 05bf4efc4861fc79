#!/usr/bin/env python3
"""What the tracks of a covered video's state sit on, against labels that hold each frame's faces (with ids) and hands
(bench/talk_clip.py --hands; faces the frame cuts count as faces). A sighting is on a face when its box meets a
labelled face at IoU >= 0.3 or its centre lies in one, else on a hand when its centre lies in a labelled hand or half
its box does, else elsewhere (a curtain, a logo, a face the labels leave out); a track is what most of its detected
sightings are on. Prints tracks and unsure sightings by kind (and the tracks the score alone would list, as before the
other model was asked), and the labelled person seen in the most shots (the speaker): in how many proposed people his
tracks are, and whether that person holds another labelled person's track.
usage: hand_tracks.py GT.json STATE.veil.json [--w 960 --h 540] [--list]"""
import json, sys
from collections import Counter, defaultdict
from label_boxes import iou, shot_of


def inside(b, x, y): return b[0] <= x <= b[0] + b[2] and b[1] <= y <= b[1] + b[3]


def share(a, b):  # of a's area inside b
    ix = max(0, min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])); iy = max(0, min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]))
    return ix * iy / max(1e-9, a[2] * a[3])


class Labels:
    def __init__(self, gt, W=960, H=540):
        self.frames = {fr['frame']: fr for fr in gt['frames']}; self.W, self.H = W, H
        self.hands = 'hands' in gt['frames'][0]

    def kind(self, f, box):
        """('face', id or None), ('hand', None) or ('elsewhere', None) for a box (pixels) on frame f."""
        g = self.frames.get(f)
        if not g: return ('elsewhere', None)
        cx, cy = box[0] + box[2] / 2, box[1] + box[3] / 2
        best = max(((iou(box, b), pid) for b, pid in zip(g['faces'], g['ids'])), default=(0, None))
        if best[0] >= 0.3: return ('face', best[1])
        for b, pid in zip(g['faces'], g['ids']):
            if inside(b, cx, cy): return ('face', pid)
        if any(iou(box, b) >= 0.3 or inside(b, cx, cy) for b in g.get('cutFaces', [])): return ('face', None)
        if any(inside(h, cx, cy) or share(box, h) >= 0.5 for h in g.get('hands', [])): return ('hand', None)
        return ('elsewhere', None)

    def classify(self, t):
        """What most of a state track's detected sightings are on, and the labelled face's id."""
        ss = [s for s in t['frames'] if s[5]] or t['frames']
        votes = Counter(); who = Counter()
        for s in ss:
            k, pid = self.kind(int(s[0]), (s[1] * self.W, s[2] * self.H, s[3] * self.W, s[4] * self.H))
            votes[k] += 1
            if pid is not None: who[pid] += 1
        k = votes.most_common(1)[0][0]
        return k, (who.most_common(1)[0][0] if k == 'face' and who else None)


def score_alone(t):
    """The rule before the other model's word: two detections with a best score of 0.5, or one of 0.9."""
    det = [s for s in t['frames'] if s[5]]; best = max((s[6] for s in det), default=0)
    return (len(det) >= 2 and best >= 0.5) or best >= 0.9


def main():
    gt = json.load(open(sys.argv[1])); st = json.load(open(sys.argv[2]))
    arg = lambda k, d: float(sys.argv[sys.argv.index(k) + 1]) if k in sys.argv else d
    labels = Labels(gt, arg('--w', 960), arg('--h', 540))
    out = {}
    for part in ('tracks', 'unsure'):
        ks = [(t, *labels.classify(t)) for t in st.get(part, [])]
        out[part] = ks
        c = Counter(k for _, k, _ in ks)
        print(f'{part}: {len(ks)} (on a face {c["face"]}, on a hand {c["hand"]}, elsewhere {c["elsewhere"]})')
        if '--list' in sys.argv:
            for t, k, pid in ks:
                if k != 'face':
                    det = [s for s in t['frames'] if s[5]]
                    print(f'  {part} {t["id"]} {k}: frames {t["frames"][0][0]}-{t["frames"][-1][0]}, detected {len(det)}, '
                          f'best {max((s[6] for s in det), default=0):.2f}, {t["frames"][0][3] * labels.W:.0f}x{t["frames"][0][4] * labels.H:.0f} px')
    # An unsure sighting the score alone would have confirmed was a track then.
    then = out['tracks'] + [x for x in out['unsure'] if score_alone(x[0])]
    c = Counter(k for _, k, _ in then)
    print(f'score alone (before the other model): tracks {len(then)} (on a face {c["face"]}, on a hand {c["hand"]}, elsewhere {c["elsewhere"]})')
    shot = shot_of(gt.get('cuts', [0])); shots = defaultdict(set)
    for fr in gt['frames']:
        for pid in fr['ids']: shots[pid].add(shot(fr['frame']))
    speaker = max(shots, key=lambda p: (len(shots[p]), -p))
    mine = [t for t, k, pid in out['tracks'] if pid == speaker]
    people = {t.get('person') for t in mine}
    others = [t['id'] for t, k, pid in out['tracks'] if t.get('person') in people and pid != speaker and t.get('person') is not None]
    bare = sorted(shots[speaker] - {shot(int(s[0])) for t in mine for s in t['frames']})
    print(f'speaker (label {speaker}, in {len(shots[speaker])} shots): {len(mine)} tracks, proposed as {len(people)} person(s) '
          f'{sorted(p for p in people if p is not None)}; other tracks in that person: {len(others)}; shots without a track: {bare}')


if __name__ == '__main__':
    main()
