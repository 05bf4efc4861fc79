#!/usr/bin/env python3
"""Makes Veil's labelled text dev set: text rendered onto real photos.

usage: text_devset.py SHARED_DATA OUT_DIR [--count N] [--seed S]
       text_devset.py --scene car SHARED_DATA OUT.jpg   (the tests' car photo; prints its labels)
       text_devset.py --scene street SAMPLE.png OUT.jpg (the same texts on the sample photo)

Deterministic: the same photos (sorted) and seed give the same images and labels.
Each photo gets 2-6 texts, each one of: a sign (1-3 words on a board, or on the
photo with an outline), a plate-like board with a border (AB12 CDE, M-AB 1234,
7ABC123, AB-123-CD), a phone number or an e-mail on a label. Fonts are DejaVu
and, when installed, Liberation and FreeFont; text 10-60 px high, rotated up to
15 degrees, a third lightly blurred. Writes OUT_DIR/images/NAME.jpg and
OUT_DIR/ground-truth.json: {"images": {"NAME.jpg": {"texts": [{"box": [x, y, w, h], "text": "..."}]}}},
box the axis-aligned box of the text's own ink (not its board), in pixels of the image; quad the
ink's rectangle before turning, turned with it (corners in reading order).
"""
import argparse, glob, json, math, os, random, string
from PIL import Image, ImageDraw, ImageFilter, ImageFont

WORDS = """open closed bakery pharmacy coffee exit entrance station market hotel police taxi
bank books garden museum library school office parking sale today fresh bread flowers
hardware salon dental clinic pizza noodles tickets platform north south east west
street road avenue square bridge harbour welcome please thank you no smoking keep
left right only bus stop city centre information toilets lift stairs floor
kitchen grill cafe bistro laundry repairs bicycle gallery theatre cinema""".split()

FONT_GLOBS = ["/usr/share/fonts/truetype/dejavu/DejaVuSans*.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSerif*.ttf",
              "/usr/share/fonts/truetype/liberation*/Liberation*.ttf", "/usr/share/fonts/truetype/freefont/Free*.ttf"]


def fonts():
    found = sorted({f for g in FONT_GLOBS for f in glob.glob(g)
                    if "Oblique" not in f and "Italic" not in f and "ExtraLight" not in f and "Mono" not in f or "SansMono.ttf" in f})
    if not found:
        raise SystemExit("text_devset.py: no fonts (apt-get install fonts-dejavu-core)")
    return found


def plate(rng):
    L = lambda n: "".join(rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ") for _ in range(n))
    D = lambda n: "".join(rng.choice(string.digits) for _ in range(n))
    return rng.choice([lambda: f"{L(2)}{D(2)} {L(3)}", lambda: f"{L(1)}-{L(2)} {D(rng.randint(2, 4))}",
                       lambda: f"{D(1)}{L(3)}{D(3)}", lambda: f"{L(2)}-{D(3)}-{L(2)}"])()


def content(rng, kind):
    if kind == "plate":
        return plate(rng)
    if kind == "phone":
        return rng.choice(["+44 20 7946 0", "0161 496 0", "+1 212 555 0", "030 901820"]) + "".join(rng.choice(string.digits) for _ in range(3))
    if kind == "email":
        return f"{rng.choice(WORDS)}{rng.randint(1, 99)}@{rng.choice(['mail', 'post', 'example'])}.{rng.choice(['com', 'org', 'net'])}"
    words = [rng.choice(WORDS) for _ in range(rng.randint(1, 3))]
    style = rng.random()
    text = " ".join(words)
    return text.upper() if style < 0.4 else text.title() if style < 0.8 else text


def render(rng, font_path, text, height, kind):
    """An RGBA patch of the text (on its board, if any) and the text's own ink mask."""
    size = max(8, int(height / 0.72))  # cap height of these fonts is about 0.72 of the size
    font = ImageFont.truetype(font_path, size)
    l, t, r, b = font.getbbox(text)
    pad = max(4, size // 3)
    w, h = r - l + 2 * pad, b - t + 2 * pad
    board = kind in ("plate", "phone", "email") or rng.random() < 0.7
    if kind == "plate":
        bg, fg = rng.choice([(250, 250, 245), (250, 215, 40)]), (15, 15, 15)
    else:
        bg = tuple(rng.randint(0, 255) for _ in range(3))
        lum = 0.3 * bg[0] + 0.59 * bg[1] + 0.11 * bg[2]
        fg = (20, 20, 20) if lum > 128 else (245, 245, 235)
    patch = Image.new("RGBA", (w, h), bg + (255,) if board else (0, 0, 0, 0))
    ink = Image.new("L", (w, h), 0)
    d, di = ImageDraw.Draw(patch), ImageDraw.Draw(ink)
    if board and kind == "plate":
        d.rectangle([1, 1, w - 2, h - 2], outline=(10, 10, 10, 255), width=max(2, size // 12))
    stroke = 0 if board else max(1, size // 14)
    d.text((pad - l, pad - t), text, font=font, fill=fg + (255,), stroke_width=stroke,
           stroke_fill=(0, 0, 0, 255) if fg[0] > 128 else (255, 255, 255, 255))
    di.text((pad - l, pad - t), text, font=font, fill=255)
    return patch, ink


def car_scene(shared_data, out):
    """The DAVIS car-roundabout frame (a real street: a car, the shop signs BIANCHETTI and
    ORTOPEDIA BURINI) with a plate-like board over the car's own front plate, too small to read."""
    im = Image.open(os.path.join(shared_data, "subjects-dev", "images", "car-roundabout-00000.jpg")).convert("RGB")
    patch, ink = render(random.Random(1), "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", "AB 123 CD", 12, "plate")
    x, y = 676 - patch.width // 2, 298 - patch.height // 2
    im.paste(patch, (x, y), patch)
    l, t, r, b = ink.getbbox()
    im.save(out, quality=95)
    print(json.dumps({"plate": {"box": [x + l, y + t, r - l, b - t], "text": "AB 123 CD"},
                      "sign": {"box": [110, 155, 70, 24], "text": "BIANCHETTI"}}))


def street_scene(sample, out):
    """The tests' text scene from a fresh clone: the sample photo (the astronaut,
    512x512, from the scikit-image wheel setup installs) with a shop sign on a
    board and a plate-like board, the same texts as the car scene, in DejaVu."""
    im = Image.open(sample).convert("RGB")
    bold = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
    if not os.path.exists(bold):
        raise SystemExit("text_devset.py: no DejaVu fonts (apt-get install fonts-dejavu-core)")
    labels = {}
    for name, text, height, kind, (cx, cy) in [("sign", "BIANCHETTI", 14, "sign", (400, 40)),
                                               ("plate", "AB 123 CD", 12, "plate", (110, 470))]:
        patch, ink = render(random.Random(3 if kind == "sign" else 1), bold, text, height, kind)
        x, y = cx - patch.width // 2, cy - patch.height // 2
        im.paste(patch, (x, y), patch)
        l, t, r, b = ink.getbbox()
        labels[name] = {"box": [x + l, y + t, r - l, b - t], "text": text}
    im.save(out, quality=95)
    # Away from both texts and the face: the scene's lower middle (the suit).
    labels["elsewhere"] = {"box": [250, 330, 200, 100], "text": ""}
    print(json.dumps(labels))


def main():
    import sys
    if len(sys.argv) == 5 and sys.argv[1] == "--scene" and sys.argv[2] == "car":
        return car_scene(sys.argv[3], sys.argv[4])
    if len(sys.argv) == 5 and sys.argv[1] == "--scene" and sys.argv[2] == "street":
        return street_scene(sys.argv[3], sys.argv[4])
    ap = argparse.ArgumentParser()
    ap.add_argument("shared_data"); ap.add_argument("out")
    ap.add_argument("--count", type=int, default=48); ap.add_argument("--seed", type=int, default=21)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    photos = sorted(glob.glob(os.path.join(a.shared_data, "faces-dev", "images", "*.jpg"))
                    + glob.glob(os.path.join(a.shared_data, "faces-dev", "unlabeled", "*.jpg"))
                    + glob.glob(os.path.join(a.shared_data, "subjects-dev", "images", "*.jpg")))
    if not photos:
        raise SystemExit(f"text_devset.py: no photos under {a.shared_data}")
    rng.shuffle(photos)
    font_list = fonts()
    os.makedirs(os.path.join(a.out, "images"), exist_ok=True)
    labels = {}
    for index, src in enumerate(photos[:a.count]):
        im = Image.open(src).convert("RGB")
        if max(im.size) > 1600:
            im.thumbnail((1600, 1600))
        W, H = im.size
        taken, texts = [], []
        for _ in range(rng.randint(2, 6)):
            kind = rng.choices(["sign", "plate", "phone", "email"], [5, 3, 1, 1])[0]
            text = content(rng, kind)
            height = rng.randint(10, 60)
            patch, ink = render(rng, rng.choice(font_list), text, height, kind)
            angle = rng.uniform(-15, 15)
            il, it, ir, ib = ink.getbbox()
            cx, cy = patch.width / 2, patch.height / 2
            patch = patch.rotate(angle, resample=Image.BICUBIC, expand=True)
            # The ink's rectangle turned as PIL turns the patch (counter-clockwise, about the centre).
            ca, sa = math.cos(math.radians(angle)), math.sin(math.radians(angle))
            turn = lambda px, py: (patch.width / 2 + (px - cx) * ca + (py - cy) * sa, patch.height / 2 - (px - cx) * sa + (py - cy) * ca)
            corners = [turn(px, py) for px, py in [(il, it), (ir, it), (ir, ib), (il, ib)]]
            ink = ink.rotate(angle, resample=Image.BICUBIC, expand=True)
            if patch.width >= W - 4 or patch.height >= H - 4:
                continue
            for _try in range(60):
                x, y = rng.randint(2, W - patch.width - 2), rng.randint(2, H - patch.height - 2)
                box = (x, y, x + patch.width, y + patch.height)
                if all(box[2] + 8 < o[0] or o[2] + 8 < box[0] or box[3] + 8 < o[1] or o[3] + 8 < box[1] for o in taken):
                    break
            else:
                continue
            taken.append(box)
            if rng.random() < 0.33:
                patch = patch.filter(ImageFilter.GaussianBlur(rng.uniform(0.4, 1.0)))
            im.paste(patch, (x, y), patch)
            l, t, r, b = ink.point(lambda v: 255 if v > 64 else 0).getbbox()
            texts.append({"box": [x + l, y + t, r - l, b - t], "text": text,
                          "quad": [[round(x + px, 1), round(y + py, 1)] for px, py in corners]})
        name = f"{index:03d}-{os.path.splitext(os.path.basename(src))[0]}.jpg"
        im.save(os.path.join(a.out, "images", name), quality=92)
        labels[name] = {"texts": texts}
    with open(os.path.join(a.out, "ground-truth.json"), "w") as f:
        json.dump({"images": labels}, f, indent=1, sort_keys=True)
    print(f"text_devset.py: {len(labels)} images, {sum(len(v['texts']) for v in labels.values())} texts in {a.out}")


if __name__ == "__main__":
    main()
