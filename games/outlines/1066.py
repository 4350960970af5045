#!/usr/bin/env python3
"""Make games/outlines/1066.svg: the 1066 board on the coast of Britain.

Coastlines are Natural Earth's 1:10m land polygons (public domain), as
shipped by the npm package world-atlas 2.0.2 (`land-10m.json`, TopoJSON).
The frame holds Britain from Orkney to the Channel, the east coast of
Ireland (Dublin is the one Irish province; the rest of Ireland is neutral
land) and the coast of France by Calais (neutral land).

No picture of the 1066 board survives (see the header of games/1066.toml):
the provinces are that file's reading of the names against the geography
of 1066, and so are their shapes here. Each is the Voronoi partition of
seed points placed by hand below, in longitude and latitude, where the
variant file's notes put the shire or kingdom (Domesday shires in England,
the kingdoms and lordships in Scotland and Wales), cut along the coast.
Islands go whole to a province (`ISLANDS`): the Sudreys are the Hebrides
from Lewis to Islay, Man is the Isle of Man, Anglesey is Gwynedd's, Arran
and Bute Strathclyde's, Wight Wessexe's. The Humber is shared between
Lincolia and York (`CLAIMS`), so that the fleet crossings of the variant
file (Lin-Dei, Lin-Yor) are borders on the picture too.

seedmap.check compares the areas with games/1066.toml: every border of
the file is drawn and no other, or this script writes nothing.

Usage: python3 1066.py PATH/TO/land-10m.json > 1066.svg
Needs shapely >= 2.1.
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import seedmap  # noqa: E402

LAND = {
    # Scotland
    "Alb": [(-4.5, 57.5), (-5.0, 58.2), (-3.5, 58.4), (-3.3, 57.5), (-5.3, 57.2),
            (-2.4, 57.3), (-4.0, 57.0)],
    "Dal": [(-5.3, 56.4), (-5.5, 55.6), (-5.0, 56.1), (-5.6, 56.75), (-4.8, 56.5)],
    "Sco": [(-2.9, 56.65), (-3.5, 56.5), (-4.2, 56.5)],
    "Fif": [(-3.1, 56.25), (-2.9, 56.2)],
    "Sti": [(-4.0, 56.1), (-4.4, 56.2), (-3.45, 56.06)],
    "Edw": [(-3.3, 55.93), (-3.6, 55.85)],
    "Lot": [(-2.7, 55.95), (-2.3, 55.8)],
    "Brc": [(-2.8, 55.5), (-3.2, 55.55), (-2.2, 55.65)],
    "Sth": [(-4.3, 55.85), (-4.5, 55.5), (-3.8, 55.6), (-4.6, 55.95)],
    "Gal": [(-3.9, 55.05), (-3.6, 55.2), (-3.3, 55.15), (-4.2, 54.95)],
    "Stn": [(-5.0, 54.9), (-4.75, 55.2), (-4.55, 54.8)],
    "Dub": [(-6.3, 53.35), (-6.2, 53.2), (-6.25, 53.55)],
    # The north of England
    "Car": [(-2.9, 54.95), (-2.7, 55.1), (-2.5, 54.85), (-3.2, 54.93)],
    "Cum": [(-3.3, 54.6), (-3.2, 54.3), (-3.1, 54.15)],
    "Wst": [(-2.7, 54.4), (-2.6, 54.1), (-2.4, 54.55), (-2.3, 54.65)],
    "Nth": [(-2.0, 55.3), (-1.7, 55.1), (-2.1, 55.0), (-2.25, 54.95)],
    "Dun": [(-1.6, 54.8), (-2.05, 54.7)],
    "Cly": [(-1.1, 54.45), (-0.7, 54.35), (-1.4, 54.55)],
    "Rip": [(-2.0, 54.2), (-1.6, 54.2), (-2.2, 53.95)],
    "Yor": [(-1.1, 54.0), (-1.0, 53.85), (-1.15, 53.75)],
    "Dei": [(-0.4, 54.0), (-0.1, 53.8), (-0.6, 53.8), (-0.85, 53.78)],
    "Dre": [(-1.4, 53.5), (-1.2, 53.6), (-0.95, 53.65)],
    "Mam": [(-2.2, 53.5)],
    "Pen": [(-2.7, 53.8), (-2.8, 53.65)],
    # The Midlands and the Danelaw
    "Chs": [(-2.6, 53.2), (-3.0, 53.3), (-3.2, 53.2)],
    "Der": [(-1.6, 53.0), (-1.8, 53.3)],
    "Sno": [(-1.0, 53.1)],
    "Lin": [(-0.4, 53.4), (-0.2, 53.2), (-0.5, 53.62)],
    "Sta": [(-0.3, 52.9), (-0.1, 52.75), (-0.6, 52.65)],
    "Led": [(-1.1, 52.65)],
    "Mer": [(-2.1, 52.7), (-2.2, 52.2)],
    "War": [(-1.6, 52.3)],
    "Sci": [(-2.7, 52.65)],
    "Her": [(-2.7, 52.1)],
    "Glo": [(-2.2, 51.85), (-2.5, 51.75), (-1.9, 51.7), (-2.65, 51.55)],
    # Wales
    "Gwy": [(-4.0, 53.0), (-3.5, 53.1), (-4.4, 52.9), (-3.8, 52.8)],
    "Off": [(-3.3, 52.4), (-3.4, 52.0), (-3.2, 52.8)],
    "Ker": [(-4.0, 52.3), (-3.9, 52.55), (-4.4, 52.15)],
    "Dyf": [(-4.9, 51.85), (-4.7, 52.0)],
    "Wwa": [(-4.2, 51.8), (-4.0, 51.95)],
    "Mor": [(-3.4, 51.6), (-3.0, 51.65)],
    # The south
    "Gla": [(-2.8, 51.15), (-3.2, 51.1)],
    "Dev": [(-3.9, 50.75), (-4.8, 50.45), (-3.6, 51.0), (-5.2, 50.2), (-3.4, 50.75)],
    "Dor": [(-2.3, 50.75), (-2.8, 50.8)],
    "Wes": [(-1.4, 51.05), (-1.8, 51.3), (-1.2, 50.85)],
    "Sus": [(-0.5, 50.9), (-0.9, 50.9)],
    "Has": [(0.4, 50.95), (0.2, 50.85)],
    "Can": [(1.1, 51.2), (1.3, 51.3)],
    "Chn": [(0.5, 51.3), (0.3, 51.15), (0.6, 51.44)],
    "Win": [(-0.5, 51.3), (-0.3, 51.2), (-0.8, 51.25)],
    "Brk": [(-1.2, 51.45), (-1.6, 51.55)],
    "Oxe": [(-1.2, 51.8), (-0.8, 51.9)],
    "Lun": [(-0.15, 51.6), (-0.2, 51.8), (0.0, 51.5), (0.3, 51.47)],
    "Bed": [(-0.5, 52.2), (-0.9, 52.3)],
    "Ely": [(0.1, 52.4), (0.1, 52.2), (0.15, 52.7)],
    "Exs": [(0.6, 51.8), (0.5, 51.6), (0.65, 51.56)],
    "Sdf": [(1.0, 52.2)],
    "Nrd": [(1.0, 52.7)],
    "~land": [(-7.5, 53.5), (-7.0, 54.6), (-7.5, 52.5), (-6.5, 54.8), (-6.6, 52.6),
              (-5.7, 54.5), (-6.0, 54.9), (-6.4, 53.9), (-6.3, 52.9), (-6.9, 53.3), (2.0, 50.5), (1.8, 49.9)],
}
SEA = {
    "CHA": [(-3.0, 50.1), (-0.5, 50.4), (-4.8, 49.9), (0.8, 50.3)],
    "SOD": [(1.3, 50.9), (1.7, 51.2), (1.2, 51.5)],
    "GER": [(2.5, 53.0), (1.5, 55.0), (0.0, 55.8), (2.0, 52.2), (-1.0, 55.5), (1.5, 57.5),
            (-1.8, 55.95), (0.55, 53.35), (0.4, 54.0), (1.3, 52.9), (1.6, 51.85)],
    "WAS": [(0.25, 52.95), (0.1, 53.6), (-0.1, 53.65)],
    "FOF": [(-2.0, 56.3), (-1.5, 57.3), (-2.8, 56.1), (-3.5, 57.9), (-2.5, 58.3)],
    "HEB": [(-7.0, 56.5), (-6.5, 58.8), (-4.5, 59.0), (-5.0, 55.6), (-6.3, 55.5),
            (-8.0, 57.5), (-5.6, 57.6)],
    "IRI": [(-5.0, 54.2), (-5.5, 53.6), (-4.0, 53.9), (-5.6, 54.6), (-4.6, 54.6), (-3.8, 54.3), (-4.7, 54.35)],
    "SOL": [(-3.55, 54.85), (-3.9, 54.7), (-4.05, 54.5)],
    "SES": [(-5.5, 52.0), (-5.8, 52.9), (-4.5, 51.3), (-3.5, 51.35), (-6.0, 51.3), (-5.0, 52.6)],
}
ISLANDS = {
    "Sdr": [(-6.6, 58.2), (-7.3, 57.6), (-7.35, 57.25), (-7.45, 57.0), (-6.2, 57.35),
            (-5.95, 56.45), (-6.2, 55.8), (-5.9, 55.95), (-6.85, 56.5), (-6.6, 56.63),
            (-6.33, 57.0)],
    "Man": [(-4.5, 54.23)],
    "Gwy": [(-4.35, 53.27)],
    "Sth": [(-5.2, 55.6), (-5.1, 55.83)],
    "Wes": [(-1.3, 50.67)],
    "~land": [(-3.0, 59.0), (-1.3, 60.3)],
}
# The Humber is the Wash's (the variant file's reading), but its head (to
# Brough) is York's, the Ouse's mouth, and a narrow crossing by Hull is
# Lincolia's, so that the fleet borders Lin-Yor and Lin-Dei across the
# estuary are drawn as borders.
CLAIMS = {
    "Yor": [[(-0.9, 53.6), (-0.55, 53.6), (-0.55, 53.8), (-0.9, 53.8)]],
    "Lin": [[(-0.36, 53.64), (-0.30, 53.64), (-0.30, 53.78), (-0.36, 53.78)]],
}

LON0, LAT0 = math.radians(-3.0), math.radians(54.5)
WINDOW = (-8.0, 49.85, 2.1, 59.1)
WIDTH = 1000.0


def laea(lon, lat):
    """Lambert azimuthal equal-area centred on 3 W 54.5 N (Britain)."""
    lam, phi = math.radians(lon), math.radians(lat)
    k = math.sqrt(2 / (1 + math.sin(LAT0) * math.sin(phi)
                       + math.cos(LAT0) * math.cos(phi) * math.cos(lam - LON0)))
    x = k * math.cos(phi) * math.sin(lam - LON0)
    y = k * (math.cos(LAT0) * math.sin(phi) - math.sin(LAT0) * math.cos(phi) * math.cos(lam - LON0))
    return x, -y


_lo0, _la0, _lo1, _la1 = WINDOW
FX0 = min(laea(_lo0, _la0)[0], laea(_lo0, _la1)[0])
FX1 = max(laea(_lo1, _la0)[0], laea(_lo1, _la1)[0])
FY0 = laea(-3.0, _la1)[1]
FY1 = laea(-3.0, _la0)[1]
SCALE = WIDTH / (FX1 - FX0)
HEIGHT = round((FY1 - FY0) * SCALE)


def proj(lon, lat):
    x, y = laea(lon, lat)
    return ((x - FX0) * SCALE, (y - FY0) * SCALE)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    text, ok = seedmap.build(
        land_path=sys.argv[1], proj=proj, frame=(WIDTH, HEIGHT),
        land_seeds=LAND, sea_seeds=SEA,
        variant=os.path.join(here, "..", "1066.toml"),
        header="""1066: province outlines for zinejudge's map picture.
     Coastlines: Natural Earth 1:10m land (public domain), via the npm package
     world-atlas 2.0.2. Inner borders: Voronoi cells of hand-placed seeds.
     Made by games/outlines/1066.py; see SOURCE.md.""",
        claims=CLAIMS, islands=ISLANDS,
        keep=lambda outer: any(-12 < lo < 5 and 48 < la < 62 for lo, la in outer),
        tolerance=1.0, min_area=4.0,
    )
    if not ok and "--force" not in sys.argv:
        sys.exit("not written: the outline and the variant file disagree (see above)")
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
