#!/usr/bin/env python3
"""The people a covered video's state proposes (each track's `person`) against labels that carry each face's identity
(frames[i].ids, as shared/tools/make_cuts_clip.py and bench/talk_clip.py write them). Each track is the labelled person
it overlaps most (IoU >= 0.3 on its frames); prints the people proposed, the labelled people found (faces >= MIN px
wide), the proposed people that mix two labelled people (purity: 0 is right), how many proposed people a labelled
person is split into (1.00: one each), and the labelled people seen in more than one shot that are one proposed person.
usage: person_purity.py GT.json STATE.veil.json [--min-w 10] [--w 960 --h 540]"""
import json, sys
from collections import defaultdict, Counter
from label_boxes import iou, shot_of
gt = json.load(open(sys.argv[1])); st = json.load(open(sys.argv[2]))
arg = lambda k, d: float(sys.argv[sys.argv.index(k) + 1]) if k in sys.argv else d
minw, W, H = arg('--min-w', 10), arg('--w', 960), arg('--h', 540)
cuts = gt.get('cuts', [0])
shot = shot_of(cuts)
frames = {fr['frame']: fr for fr in gt['frames']}
label = {}
for t in st['tracks']:
    votes = Counter()
    for s in t['frames']:
        g = frames.get(int(s[0]))
        if not g: continue
        box = (s[1] * W, s[2] * H, s[3] * W, s[4] * H)
        best = max(((iou(box, b), pid) for b, pid in zip(g['faces'], g['ids']) if b[2] >= minw), default=(0, None))
        if best[0] >= 0.3: votes[best[1]] += 1
    label[t['id']] = votes.most_common(1)[0][0] if votes else None
people = defaultdict(list)
for t in st['tracks']:
    if t.get('person') is not None: people[t['person']].append(t['id'])
if not people: sys.exit('the state holds no people (made before Veil proposed them, or without the sface model)')
mixed = [p for p, ts in people.items() if len({label[t] for t in ts if label[t] is not None}) > 1]
split = defaultdict(set); shots = defaultdict(set)
for p, ts in people.items():
    for t in ts:
        if label[t] is not None: split[label[t]].add(p)
for fr in gt['frames']:
    for b, pid in zip(fr['faces'], fr['ids']):
        if b[2] >= minw: shots[pid].add(shot(fr['frame']))
found = [pid for pid in split]
across = [pid for pid in found if len(shots[pid]) > 1]
joined = [pid for pid in across if len(split[pid]) == 1]
print(f'people_proposed={len(people)} labelled_people_found={len(found)} tracks={len(st["tracks"])} '
      f'mixing_two={len(mixed)} proposed_per_labelled={sum(len(v) for v in split.values()) / max(1, len(found)):.2f} '
      f'in_several_shots={len(across)} of_them_one_person={len(joined)}')
