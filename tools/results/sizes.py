"""Sizes as the tools write them (64MiB, 4KiB, 1GiB, or plain bytes), for the result scripts."""

UNITS = {"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}


def size_bytes(text):
    for unit, scale in UNITS.items():
        if text.endswith(unit):
            return int(text[: -len(unit)]) * scale
    return int(text)
