"""An image file read back for pixel checks: (width, height, RGB bytes), through ImageMagick's
convert (the render and records tests read what `jvmscope-cli render` drew)."""
import subprocess


def read_png(path):
    ppm = subprocess.run(["convert", path, "ppm:-"], check=True, capture_output=True).stdout
    magic, size, _max, data = ppm.split(b"\n", 3)
    assert magic == b"P6"
    w, h = map(int, size.split())
    return w, h, data
