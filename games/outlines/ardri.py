#!/usr/bin/env python3
"""Make games/outlines/ardri.svg: Ard-Ri's provinces on the coast of Ireland.

Coastlines are Natural Earth's 1:10m land polygons (public domain), as
shipped by the npm package world-atlas 2.0.2 (`land-10m.json`, TopoJSON):
at the scale of one island the 1:50m coast is too coarse for Donegal's and
Kerry's peninsulas. Lough Neagh, the loch of rule 8 where Ailech, Enda, Mag
Roth and Airgialla meet, is not in the land layer (Natural Earth keeps
lakes apart): it is drawn below as a ring of hand-placed points (from the
lough's well-known extent, 54.44 to 54.76 N, 6.27 to 6.66 W) and shown as
water that is no province, as the rule text has it.

The provinces are the 379 AD kingdoms and territories of the game, not
counties: each is the Voronoi partition of seed points placed by hand
below, in longitude and latitude, cut along the coast. The seeds put each
province where its name and the game's borders put it (Conall in Donegal,
Enda in Antrim, Mag Roth in Down, Corca Baiscin in Clare, Muma in Kerry,
Anu in Cork, Almu in Wexford, and so on) and were moved until every border
of games/ardri.toml, and no other, is drawn: seedmap.check compares the
two and this script writes nothing while they differ. The 1998 picture
(shared/maps/reference/ardri/) was looked at to check which province lies
where; none of its lines were copied. The seas are divided the same way:
Mona Bay is Donegal Bay, Temuir Bay the bay of Dundalk, Naas Bay the bay
of Dublin, the Shannon its estuary and the sea off Clare and Kerry.
Scotland's Kintyre and Galloway and the Isle of Man are neutral land.

Usage: python3 ardri.py PATH/TO/land-10m.json > ardri.svg
Needs shapely >= 2.1. Also prints, on standard error, any border drawn that
the variant file lacks or missing that it has (and then exits with 1).
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import seedmap  # noqa: E402

LAND = {
    "Cnl": [(-8.0, 55.0), (-8.35, 54.85), (-7.75, 55.15), (-8.2, 55.1)],
    "Nia": [(-7.8, 54.6), (-8.1, 54.65), (-7.55, 54.45), (-7.6, 54.75)],
    "Aic": [(-7.3, 55.15), (-7.05, 54.9), (-6.85, 54.68), (-7.2, 54.75)],
    "End": [(-6.3, 55.05), (-6.1, 54.8), (-6.6, 55.1), (-6.25, 54.85)],
    "Mag": [(-5.95, 54.35), (-6.2, 54.3), (-5.7, 54.5), (-6.05, 54.48)],
    "Air": [(-6.6, 54.3), (-6.4, 54.1), (-6.72, 54.42)],
    "Ema": [(-7.0, 54.3), (-7.25, 54.35), (-7.05, 54.5)],
    "Gua": [(-6.45, 53.9), (-6.7, 53.95)],
    "Tem": [(-6.3, 53.6), (-6.55, 53.55)],
    "Naa": [(-6.2, 53.35), (-6.3, 53.25)],
    "Rat": [(-6.3, 52.95), (-6.45, 53.05)],
    "Alm": [(-6.5, 52.45), (-6.6, 52.7), (-6.75, 52.3)],
    "Era": [(-7.6, 52.05), (-8.0, 51.95), (-7.0, 52.2)],
    "Anu": [(-8.8, 51.75), (-9.3, 51.65), (-8.3, 51.9)],
    "Mum": [(-9.7, 52.1), (-9.5, 51.85), (-9.55, 52.3), (-9.6, 52.38), (-9.55, 52.52)],
    "Eog": [(-9.0, 52.5), (-8.7, 52.62), (-9.25, 52.55), (-8.95, 52.6)],
    "Cor": [(-9.2, 52.85), (-9.5, 52.75), (-8.9, 53.0), (-9.2, 53.05), (-9.0, 52.72), (-9.7, 52.66), (-9.4, 52.7)],
    "Cru": [(-8.6, 53.55), (-8.9, 53.5), (-9.05, 53.3), (-9.0, 53.7)],
    "Tai": [(-9.7, 53.45), (-9.9, 53.6), (-9.5, 53.3)],
    "Gam": [(-9.5, 54.1), (-9.9, 54.15), (-9.3, 53.9), (-9.7, 53.85)],
    "Con": [(-8.6, 54.1), (-8.55, 53.9), (-8.9, 54.1), (-8.3, 54.0)],
    "Mon": [(-8.2, 54.3), (-7.95, 54.2)],
    "Ere": [(-7.75, 54.0), (-7.6, 53.85)],
    "Asa": [(-7.1, 53.9)],
    "Tua": [(-8.05, 53.75), (-8.15, 53.85)],
    "Uis": [(-7.5, 53.55)],
    "Mid": [(-6.9, 53.6)],
    "Esc": [(-7.5, 53.3), (-7.2, 53.4)],
    "Eir": [(-8.4, 53.15), (-8.2, 52.95), (-8.5, 52.85)],
    "Mog": [(-7.6, 52.95), (-7.75, 52.7)],
    "Lai": [(-6.9, 53.1), (-6.85, 52.8), (-6.7, 53.35)],
    "Aie": [(-7.25, 52.65)],
    "Edg": [(-7.5, 52.4), (-7.2, 52.42)],
    "Cia": [(-8.5, 52.35), (-8.2, 52.6), (-8.6, 52.15)],
    "~land": [(-5.5, 55.6), (-4.6, 55.0), (-4.5, 54.2), (-4.0, 55.5), (-4.0, 52.8),
              (-4.3, 53.25), (-5.0, 51.8)],
}
SEA = {
    "NAT": [(-10.8, 54.8), (-10.6, 53.3), (-7.5, 55.5), (-6.5, 55.4), (-10.6, 52.8),
            (-10.6, 51.8), (-10.3, 54.4), (-10.4, 53.9), (-10.0, 53.05), (-9.3, 53.2)],
    "MNB": [(-8.8, 54.45), (-9.0, 54.55), (-8.5, 54.55)],
    "NCH": [(-6.0, 55.35), (-5.7, 55.4)],
    "ERI": [(-5.6, 52.5), (-5.4, 53.5), (-5.3, 54.0), (-5.3, 54.4), (-5.5, 54.8), (-6.7, 51.9)],
    "TMB": [(-6.1, 53.9), (-5.9, 54.05)],
    "NSB": [(-5.9, 53.35), (-5.95, 53.1)],
    "SHA": [(-9.75, 52.5), (-9.3, 52.6), (-10.0, 52.35)],
    "SOU": [(-8.5, 51.3), (-7.5, 51.6), (-10.0, 51.3)],
}
# Lough Neagh (rule 8's loch), a ring of lon/lat points round its shore.
LOUGH_NEAGH = [(-6.45, 54.76), (-6.33, 54.72), (-6.27, 54.62), (-6.33, 54.50),
               (-6.45, 54.44), (-6.58, 54.48), (-6.66, 54.56), (-6.63, 54.68),
               (-6.55, 54.74)]

LON0, LON1, LAT0, LAT1 = -10.9, -4.9, 51.25, 55.55
COS = math.cos(math.radians(53.4))
WIDTH = 1000.0
SCALE = WIDTH / ((LON1 - LON0) * COS)
HEIGHT = round((LAT1 - LAT0) * SCALE)


def proj(lon, lat):
    """Plate carree with the scale of 53.4 N (the middle of Ireland) in
    longitude: at this size as good as any conformal projection."""
    return ((lon - LON0) * COS * SCALE, (LAT1 - lat) * SCALE)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    text, ok = seedmap.build(
        land_path=sys.argv[1], proj=proj, frame=(WIDTH, HEIGHT),
        land_seeds=LAND, sea_seeds=SEA,
        variant=os.path.join(here, "..", "ardri.toml"),
        header="""Ard-Ri: province outlines for zinejudge's map picture.
     Coastlines: Natural Earth 1:10m land (public domain), via the npm package
     world-atlas 2.0.2; Lough Neagh drawn by hand. Inner borders: Voronoi cells
     of hand-placed seeds. Made by games/outlines/ardri.py; see SOURCE.md.""",
        lakes=[LOUGH_NEAGH],
        keep=lambda outer: any(-12 < lo < -3 and 50 < la < 57 for lo, la in outer),
        tolerance=1.2, min_area=6.0,
    )
    if not ok and "--force" not in sys.argv:
        sys.exit("not written: the outline and the variant file disagree (see above)")
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
