"""The Dask tests' input tree: small raws of several kinds — DNGs of rawburst's simulated sensors at a small size
(three sensors x three scenes) and two real Kodak raws from the shared samples — copied under distinct names into a
nested folder tree."""
import json
import os
import shutil
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SENSORS = {"phone-front": (160, 120), "phone-wide": (192, 144), "mirrorless-24": (240, 160)}
SCENES = ("colorchart", "siemens-star", "grey-ramp")
REAL = ("kodak-dc120-jpeg.kdc", "kodak-dc120.kdc")


def small_profile(name, size, folder):
    """The built-in sensor profile `name` at `size` (the same pixels, noise and lens; a smaller sensor)."""
    with open(os.path.join(ROOT, "profiles", f"{name}.json"), encoding="utf-8") as stream:
        profile = json.load(stream)
    profile["name"] = f"{name}-small"
    profile["width"], profile["height"] = size
    path = os.path.join(folder, f"{name}-small.json")
    with open(path, "w", encoding="utf-8") as stream:
        json.dump(profile, stream)
    return path


def simulated_dngs(rawburst, folder):
    """One DNG per sensor and scene, captured with the simulated sensor."""
    made = []
    for name, size in SENSORS.items():
        profile = small_profile(name, size, folder)
        for scene in SCENES:
            out = os.path.join(folder, f"{name}-{scene}")
            subprocess.run([rawburst, "capture", "--profile", profile, "--scene", scene, "--frames", "1",
                            "--iso", "200", "--shutter", "1/60", "--focus", "1m", "-o", out],
                           check=True, capture_output=True, timeout=120)
            made += [os.path.join(out, f) for f in sorted(os.listdir(out)) if f.endswith(".dng")]
    return made


def make_tree(rawburst, samples, work, count):
    """`count` raws under WORK/in (nested folders, distinct names, the sources in turn); returns {copy: source}."""
    sources_folder = os.path.join(work, "sources")
    os.makedirs(sources_folder, exist_ok=True)
    sources = simulated_dngs(rawburst, sources_folder) + [os.path.join(samples, name) for name in REAL]
    tree = {}
    for i in range(count):
        source = sources[i % len(sources)]
        extension = os.path.splitext(source)[1].upper() if i % 2 else os.path.splitext(source)[1]
        folder = os.path.join(work, "in", f"batch-{i % 4}", f"roll-{(i // 4) % 3}")
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, f"img-{i:04d}{extension}")
        shutil.copyfile(source, path)
        tree[path] = source
    return tree
