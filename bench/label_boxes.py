"""What the bench's judges of labelled clips share: boxes [x, y, w, h] and the shot a frame is in."""


def iou(a, b):
    ax, ay, aw, ah = a; bx, by, bw, bh = b
    ix = max(0, min(ax + aw, bx + bw) - max(ax, bx)); iy = max(0, min(ay + ah, by + bh) - max(ay, by))
    i = ix * iy; u = aw * ah + bw * bh - i
    return i / u if u > 0 else 0


def shot_of(cuts):
    """frame -> the index of its shot, for a clip cut at `cuts` (first frames of shots)."""
    return lambda f: sum(1 for c in cuts if f >= c) - 1
