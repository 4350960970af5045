#!/usr/bin/env python3
"""Make games/outlines/abstraction2.svg: Abstraction II on the coasts of Europe.

The board (shared/maps/reference/abstraction2/, hand-drawn, 1914) is an
abstracted Europe from Iceland to Persia whose coasts follow the real ones
closely enough that the real coastlines fit: Natural Earth's 1:50m land
polygons (public domain), as shipped by the npm package world-atlas 2.0.2
(`land-50m.json`, TopoJSON), are used, and the provinces are drawn on them.

Seeds. Each province's first seed is its `xy` in games/abstraction2.toml
(the deepest point of its area on the picture, scaled to 1000 x 1000),
carried to longitude and latitude by an interpolation fitted on CONTROL:
provinces whose place on the real map is plain from their name, with the
lon/lat of their middle. The fit is affine, plus the control points'
residuals spread by inverse distance, so the control provinces land where
they belong and the others between them as on the picture. Further seeds,
in longitude and latitude, were placed by hand (EXTRA) until every border
of the variant file, and no other, is drawn: seedmap.check compares the
two and this script writes nothing while they differ. The picture was
looked at to see which province lies where; none of its lines were copied.

The board's own oddities are kept: Corsica, Crete, Cyprus, the Balearics,
Gotland and the other unlabelled islands are neutral land; the Caspian, the
Persian Gulf and the Red Sea are neutral water. Iceland, Ireland and
Sardinia are whole islands (no seed cells of their own on the mainland);
the Kattegat, the Belts and the Sound are Denmark's water and the Sea of
Marmara Constantinople's (CLAIMS). The Isthmus of Corinth, open at 1:50m,
is closed (BRIDGES), and the Straits of Gibraltar and Messina are crossed
by split causeways (PATCHES), so that rule 4's direct passages and the
seas beside them are all borders on the picture.

The projection is standard.py's: Lambert azimuthal equal-area with a mild
fisheye, here centred on 12 E 50 N.

Usage: python3 abstraction2.py PATH/TO/land-50m.json > abstraction2.svg
Needs shapely >= 2.1 (and numpy, which it brings).
"""
import math
import os
import sys
import tomllib

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import seedmap  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
VARIANT = os.path.join(HERE, "..", "abstraction2.toml")

# Provinces whose middle is plain from the name: id -> (lon, lat).
CONTROL = {
    "Ice": (-18.5, 64.9), "Ire": (-8.0, 53.2), "Edi": (-3.2, 56.8), "Cly": (-5.0, 56.8),
    "Lon": (0.0, 51.8), "Bre": (-3.0, 48.2), "Par": (2.3, 48.3), "Mar": (5.5, 43.8),
    "Por": (-8.0, 39.8), "And": (-4.8, 37.5), "Mor": (-6.0, 33.5), "Rom": (12.8, 42.0),
    "Sic": (14.2, 37.5), "Gre": (22.3, 38.5), "Con": (29.0, 40.5), "Smy": (29.0, 38.5),
    "Dam": (36.8, 34.5), "Egy": (30.0, 29.5), "Per": (49.0, 34.0), "Nwy": (9.5, 61.0),
    "Swe": (15.0, 60.0), "Fin": (26.0, 63.0), "Lap": (24.0, 68.5), "Mos": (37.6, 55.7),
    "War": (20.5, 52.2), "Ber": (13.0, 53.0), "Mun": (11.0, 49.5), "Vie": (15.5, 48.0),
    "Bud": (19.5, 47.2), "Ode": (35.0, 47.0), "Sin": (35.0, 41.0), "Arc": (40.0, 64.0),
    "Vol": (47.0, 55.0), "Den": (9.5, 56.0), "Kie": (9.5, 53.2), "Sar": (9.0, 40.0),
    "Tun": (9.5, 35.0), "Lib": (15.0, 31.0), "Alg": (2.5, 34.5),
}
# Seeds placed by hand, id -> [(lon, lat), ...], besides the carried xy.
EXTRA = {
    # The British Isles
    "Cly": [(-5.0, 57.8), (-4.6, 55.5), (-4.9, 58.4), (-4.2, 55.3), (-4.5, 56.2)],
    "Edi": [(-2.5, 57.3), (-3.5, 58.4), (-3.0, 55.8), (-2.8, 55.6), (-3.8, 57.5), (-3.9, 56.1)],
    "Lvp": [(-2.8, 54.7), (-2.7, 53.8), (-3.3, 54.5), (-2.6, 53.4)],
    "Yor": [(-1.1, 54.5), (-1.5, 53.8), (-1.8, 55.2), (-1.3, 53.4)],
    "Wal": [(-3.7, 52.3), (-3.4, 53.0), (-4.6, 51.8), (-2.0, 52.9), (-2.3, 52.5)],
    "Lon": [(-0.2, 51.5), (1.0, 52.3), (-1.3, 51.0), (-1.0, 52.2)],
    "Ply": [(-4.3, 50.5), (-3.3, 50.9), (-2.7, 51.1), (-2.0, 50.8)],
    # Scandinavia and the Baltic
    "Nwy": [(8.0, 58.6), (13.0, 65.0), (16.0, 68.0), (19.0, 69.5), (10.6, 60.5), (11.0, 59.3)],
    "Lap": [(26.0, 69.5), (30.0, 69.2), (34.0, 68.0), (20.5, 67.8), (23.0, 70.3), (21.5, 70.1)],
    "Swe": [(14.0, 56.5), (17.5, 63.0), (20.0, 66.0), (18.0, 58.5), (13.5, 62.0), (12.0, 58.3)],
    "Fin": [(25.0, 61.0), (27.0, 66.5), (23.5, 64.0), (27.5, 60.6), (25.0, 60.8)],
    "Arc": [(45.0, 66.0), (50.0, 64.0), (36.5, 64.5)],
    "StP": [(30.5, 60.2), (32.0, 60.5), (29.0, 60.5), (28.5, 59.5)],
    "Cou": [(25.0, 57.5), (27.0, 58.8), (24.5, 55.3), (24.5, 59.0), (26.5, 59.2)],
    "Den": [(9.0, 55.3), (10.0, 57.0)],
    "Kie": [(9.5, 54.5), (7.8, 52.8), (10.6, 53.8)],
    "Ber": [(12.0, 53.5), (14.0, 53.8)],
    "Pru": [(21.0, 54.5), (17.0, 54.0), (22.5, 54.3), (17.0, 52.9)],
    # Central Europe
    "Hol": [(6.5, 53.0), (5.0, 52.0)],
    "Bel": [(3.5, 51.0), (5.5, 50.2)],
    "Ruh": [(8.5, 51.5), (7.0, 51.2)],
    "Mun": [(11.0, 51.8), (11.5, 48.3), (10.3, 50.3)],
    "Dre": [(13.5, 51.0), (15.5, 52.4)],
    "Sil": [(17.0, 51.2), (18.0, 50.6)],
    "Boh": [(14.5, 49.9), (17.8, 49.6), (13.8, 48.7)],
    "Vie": [(16.5, 47.6), (19.0, 48.8), (14.8, 47.6)],
    "Gal": [(24.5, 49.5), (19.8, 49.8), (22.5, 48.8)],
    "War": [(24.0, 54.0), (19.5, 51.0)],
    "Mos": [(28.5, 54.0), (33.0, 57.0), (40.0, 52.0), (38.0, 59.5)],
    "Ukr": [(32.0, 50.0), (25.5, 50.5)],
    "Rum": [(27.0, 47.2), (26.2, 48.2), (28.5, 46.5), (24.0, 44.5)],
    "Tra": [(23.0, 46.8), (22.2, 45.6)],
    "Ode": [(31.0, 46.8), (34.0, 45.2), (40.0, 47.0), (37.0, 48.5)],
    "Vol": [(50.0, 50.0), (45.0, 60.0), (45.0, 52.0)],
    "Cau": [(47.0, 43.0), (45.5, 41.8), (40.5, 44.5), (38.5, 45.3)],
    # France and the Alps
    "Bre": [(-1.5, 47.8), (-4.0, 48.3), (-1.2, 47.0)],
    "Pic": [(2.5, 50.2), (0.0, 49.3)],
    "Par": [(1.0, 47.5), (0.6, 46.6)],
    "Lor": [(5.5, 48.5), (4.5, 49.6), (6.5, 49.8)],
    "Lyo": [(4.3, 46.8), (3.5, 45.3)],
    "Bur": [(6.5, 48.3), (5.3, 45.5), (5.6, 46.4), (7.3, 49.2), (7.7, 49.8)],
    "Mar": [(3.5, 43.6), (6.8, 43.9)],
    "Gas": [(1.5, 44.0), (0.5, 45.8), (-1.0, 43.3)],
    "Obe": [(6.5, 46.0), (7.0, 47.2), (6.6, 44.9)],
    "Zur": [(8.2, 47.0), (9.0, 47.0), (9.8, 46.6)],
    "Swa": [(9.2, 48.5), (8.5, 48.0), (8.9, 49.6), (9.7, 47.8)],
    "Tyr": [(11.5, 46.8), (13.8, 47.0), (12.8, 47.5), (10.2, 47.3)],
    "Pie": [(7.7, 45.0), (8.5, 44.4), (9.5, 45.9), (10.3, 46.3)],
    # Italy and the Balkans
    "Tus": [(11.0, 43.5), (10.5, 44.0)],
    "Ven": [(12.0, 45.5), (11.5, 44.8), (13.2, 43.6)],
    "Rom": [(13.5, 41.5), (12.0, 42.3)],
    "Nap": [(15.0, 40.8), (14.5, 41.0), (16.3, 38.6)],
    "Apu": [(15.8, 41.4), (17.2, 40.6), (14.5, 42.0), (18.2, 40.1)],
    "Cro": [(14.0, 45.6), (16.0, 45.5), (17.2, 46.2)],
    "Zar": [(16.0, 44.0), (18.5, 42.7)],
    "Pec": [(18.8, 45.3), (20.3, 45.6)],
    "Ser": [(20.8, 43.5), (21.5, 44.5)],
    "Alb": [(19.8, 41.5)],
    "Mac": [(22.0, 41.5), (24.0, 41.0), (25.5, 41.0)],
    "Gre": [(22.0, 39.5)],
    "Bul": [(25.5, 42.7), (27.0, 43.0)],
    "Con": [(27.0, 41.5), (30.5, 40.9)],
    # Asia Minor and the Levant
    "Smy": [(31.0, 37.5), (27.5, 39.5), (31.5, 39.0)],
    "Sin": [(33.0, 40.5), (37.5, 40.8)],
    "Cic": [(34.5, 37.5)],
    "Arm": [(41.0, 40.5), (44.0, 41.0), (39.5, 38.8)],
    "Dam": [(37.5, 36.5), (39.5, 36.8)],
    "Mes": [(42.0, 35.0), (44.0, 33.5)],
    "Per": [(47.0, 37.0), (52.0, 32.0)],
    "Pal": [(35.5, 31.5), (37.0, 31.0), (34.6, 31.3)],
    "Ara": [(40.0, 28.0), (45.0, 25.0), (35.8, 29.3)],
    "Egy": [(26.0, 31.0), (34.5, 29.8), (33.0, 30.8)],
    # Iberia and Africa
    "Por": [(-8.3, 41.5)],
    "Leo": [(-6.5, 42.5), (-8.0, 42.8), (-4.5, 43.0), (-2.5, 43.1)],
    "Cas": [(-4.0, 40.5), (-3.0, 41.5)],
    "Cat": [(1.5, 41.8), (-0.5, 41.5), (-0.5, 39.5), (-1.5, 42.7)],
    "And": [(-1.5, 38.2), (-3.5, 38.5)],
    "Mor": [(-5.5, 35.3), (-3.5, 34.8)],
    "Alg": [(0.0, 35.3), (5.0, 36.3), (6.0, 31.0)],
    "Tun": [(10.0, 33.0)],
    "Lib": [(20.0, 31.5), (12.0, 32.0), (11.0, 30.5)],
    # Neutral land: Greenland, the Faroes, Shetland, Orkney.
    "~land": [(-30.0, 68.0), (-45.0, 62.0), (-25.0, 72.0), (-7.0, 62.0), (-1.2, 60.4),
              (-3.0, 59.0)],
    # Seas
    "ARO": [(-15.0, 68.0), (10.0, 73.0), (20.0, 73.5), (25.0, 74.0), (12.0, 72.5), (24.0, 73.2), (-17.0, 67.2)],
    "DMS": [(-25.0, 66.0), (-28.0, 64.0)],
    "DBS": [(-28.0, 58.0), (-28.0, 50.0), (-27.0, 42.0), (-25.0, 46.0)],
    "NTH": [(0.0, 58.0), (1.0, 56.8), (-1.5, 58.2), (-2.3, 56.15), (4.5, 58.5)],
    "ANG": [(6.5, 56.0), (7.0, 56.3), (1.5, 53.0)],
    "HEL": [(7.5, 54.0), (8.3, 54.5)],
    "SKA": [(9.0, 58.0), (10.5, 57.9), (8.0, 57.9)],
    "BAL": [(14.0, 55.0), (19.0, 55.5), (10.5, 54.45)],
    "RIS": [(20.0, 58.5), (23.0, 59.7), (27.0, 60.0), (23.0, 57.5)],
    "GoB": [(20.0, 62.0), (22.5, 64.5), (19.5, 60.5)],
    "NWG": [(-3.5, 59.6), (5.0, 63.0), (14.0, 70.0), (4.5, 60.5), (8.0, 64.0), (12.0, 67.5), (-4.2, 59.0), (-2.5, 59.5), (-8.0, 66.0), (-4.5, 59.3), (-12.0, 66.5), (20.0, 70.5)],
    "BAR": [(35.0, 72.0), (40.0, 68.5), (30.0, 71.5), (28.0, 72.0)],
    "HBS": [(-6.5, 56.0), (-7.0, 58.5), (-5.5, 54.8), (-12.0, 61.0), (-14.0, 63.3)],
    "IRI": [(-5.0, 53.5), (-4.5, 51.3), (-6.0, 51.3), (-8.5, 51.2)],
    "ENG": [(-3.0, 50.0), (0.5, 50.3), (-5.5, 49.6)],
    "MAO": [(-7.0, 46.0), (-10.0, 45.0), (-11.0, 49.5), (-9.5, 40.5), (-5.5, 48.8)],
    "NAO": [(-12.0, 58.0), (-21.0, 61.5), (-11.0, 55.0), (-11.5, 53.0), (-24.0, 63.0)],
    "BoB": [(-3.5, 45.5), (-4.5, 44.2)],
    "SAO": [(-10.0, 36.0), (-8.0, 35.5)],
    "AZO": [(-15.0, 34.0), (-12.0, 32.0)],
    "WMS": [(-1.0, 36.5), (5.0, 38.0), (7.5, 37.8)],
    "GoL": [(5.0, 42.8), (2.0, 40.5), (0.5, 39.0), (8.5, 43.7), (7.8, 41.0)],
    "TYS": [(11.5, 41.0), (14.0, 39.5), (10.5, 38.0)],
    "MAS": [(12.0, 36.0), (12.5, 37.0)],
    "CMS": [(17.0, 35.5), (20.0, 34.0), (16.5, 37.2), (22.5, 35.3), (22.8, 36.2), (23.3, 35.0), (23.7, 34.9)],
    "ION": [(18.5, 39.5), (20.0, 38.0), (21.0, 36.6), (21.7, 38.3)],
    "ADS": [(14.0, 44.0), (17.5, 42.2), (18.8, 41.0)],
    "AEG": [(25.0, 38.5), (24.3, 40.2), (25.0, 36.3), (23.4, 37.7), (23.0, 38.8), (25.0, 35.9), (24.3, 35.8), (25.5, 35.5)],
    "EMS": [(28.0, 33.0), (33.0, 32.5), (24.5, 33.0), (25.5, 34.6), (26.8, 34.3), (34.3, 33.6), (25.0, 34.7)],
    "CYS": [(28.5, 35.5), (32.0, 35.8), (34.5, 36.3), (27.3, 35.8), (26.7, 35.4), (26.45, 35.3)],
    "WBS": [(30.0, 44.5)],
    "EBS": [(38.5, 43.5), (35.0, 44.2)],
}
# Islands that are not spaces (neutral land), and islands a coast keeps.
ISLANDS = {
    "~land": [(9.1, 42.1), (24.8, 35.2), (33.0, 35.0), (2.9, 39.6), (18.5, 57.5),
              (22.5, 58.4), (-1.3, 60.3), (-4.5, 54.25), (-7.0, 62.0), (-3.0, 59.0),
              (4.1, 40.0), (1.4, 38.95), (14.9, 55.1), (25.4, 37.1), (25.3, 37.5),
              (28.0, 36.2), (26.0, 38.4), (26.2, 39.2)],
    "Den": [(11.8, 55.5), (10.4, 55.3), (11.6, 54.8)],
    "Ice": [(-18.5, 64.9)],
    "Ire": [(-8.0, 53.2)],
    "Sar": [(9.0, 40.0)],
    "Sic": [(13.2, 37.8), (15.1, 37.3), (15.3, 38.0)],
}
# The Isthmus of Corinth, open water at 1:50m, is closed.
BRIDGES = [[(22.3, 37.8), (23.25, 37.8), (23.25, 38.25), (22.3, 38.25)]]
# The Straits of Gibraltar and Messina: rule 4 makes Andalucia and Morocco,
# Naples and Sicily neighbours, and the seas on either side still meet. So
# each strait is crossed by a causeway narrower than a pixel, split along
# its length between the two provinces: they share its whole length, and
# the seas on either side lie within a pixel of each other along it (the
# picture test measures borders within a pixel; see seedmap.check).
PATCHES = {
    "And": [[(-5.62, 36.06), (-5.595, 36.06), (-5.595, 35.84), (-5.62, 35.84)]],
    "Mor": [[(-5.595, 36.06), (-5.57, 36.06), (-5.57, 35.84), (-5.595, 35.84)]],
    "Sic": [[(15.52, 38.245), (15.78, 38.245), (15.78, 38.225), (15.52, 38.225)]],
    "Nap": [[(15.52, 38.265), (15.78, 38.265), (15.78, 38.245), (15.52, 38.245)]],
}
# The Kattegat, the Belts and the Sound are Denmark's (see the variant
# file's header): bounded by Skagen-Sweden and the Kiel shore-Sweden.
# The Sea of Marmara and the straits are Constantinople's, as on the
# standard map.
CLAIMS = {
    "Den": [[(9.5, 57.75), (10.6, 57.75), (11.9, 57.75), (12.9, 57.0), (13.1, 56.2),
             (12.95, 55.4), (12.3, 55.1), (11.0, 54.05), (9.45, 54.3), (9.35, 55.2)]],
    "Con": [[(26.1, 40.0), (30.0, 40.0), (30.0, 41.3), (28.6, 41.3), (26.9, 40.9), (26.1, 40.4)]],
}

LON0, LAT0 = math.radians(12.0), math.radians(50.0)
WINDOW = (-30.0, 27.0, 58.0, 73.5)
WIDTH = 1000.0
FISHEYE = 1.2


def laea(lon, lat):
    """Lambert azimuthal equal-area centred on 12 E 50 N with a fisheye,
    as standard.py has it: the crowded west and centre (the board's are
    small provinces) get more room than Russia, Arabia and Africa."""
    x, y = laea0(lon, lat)
    r = math.hypot(x, y)
    f = (1 + FISHEYE) / (1 + FISHEYE * r / 0.75)
    return x * f, y * f


def laea0(lon, lat):
    lam, phi = math.radians(lon), math.radians(lat)
    k = math.sqrt(2 / (1 + math.sin(LAT0) * math.sin(phi)
                       + math.cos(LAT0) * math.cos(phi) * math.cos(lam - LON0)))
    x = k * math.cos(phi) * math.sin(lam - LON0)
    y = k * (math.cos(LAT0) * math.sin(phi) - math.sin(LAT0) * math.cos(phi) * math.cos(lam - LON0))
    return x, -y


_lo0, _la0, _lo1, _la1 = WINDOW
FX0 = laea(_lo0, 55.0)[0]
FX1 = laea(_lo1, 45.0)[0]
FY0 = laea(12.0, _la1)[1]
FY1 = laea(12.0, _la0)[1]
SCALE = WIDTH / (FX1 - FX0)
HEIGHT = round((FY1 - FY0) * SCALE)


def proj(lon, lat):
    x, y = laea(lon, lat)
    return ((x - FX0) * SCALE, (y - FY0) * SCALE)


def carry(points):
    """lon/lat for each picture point: affine fit on CONTROL plus the
    residuals spread by inverse squared distance."""
    v = tomllib.load(open(VARIANT, "rb"))
    xy = {p["id"]: p["xy"] for p in v["provinces"]}
    src = np.array([xy[k] for k in CONTROL], float)
    dst = np.array([CONTROL[k] for k in CONTROL], float)
    a = np.c_[src, np.ones(len(src))]
    coef, *_ = np.linalg.lstsq(a, dst, rcond=None)
    resid = dst - a @ coef
    out = {}
    for k, (x, y) in points.items():
        base = np.array([x, y, 1.0]) @ coef
        d2 = ((src - (x, y)) ** 2).sum(axis=1)
        if d2.min() < 1e-9:
            out[k] = tuple(dst[d2.argmin()])
            continue
        w = 1 / d2
        out[k] = tuple(base + (w[:, None] * resid).sum(axis=0) / w.sum())
    return out


def seeds():
    v = tomllib.load(open(VARIANT, "rb"))
    land, sea = {}, {}
    carried = carry({p["id"]: p["xy"] for p in v["provinces"]})
    for p in v["provinces"]:
        table = sea if p["terrain"] == "sea" else land
        first = [] if p["id"] in ("Ice", "Ire", "Sar") else [tuple(map(float, carried[p["id"]]))]
        table[p["id"]] = first + EXTRA.get(p["id"], [])
    land["~land"] = [(-40.0, 70.0)] + EXTRA.get("~land", [])
    sea["~water"] = [(51.0, 41.0), (38.0, 22.0), (50.0, 27.0), (35.0, 28.0), (33.0, 28.5)] + EXTRA.get("~water", [])
    return land, sea


def main():
    land, sea = seeds()
    if "--seeds" in sys.argv:
        for k, pts in {**land, **sea}.items():
            print(k, [(round(float(a), 2), round(float(b), 2)) for a, b in pts])
        return
    text, ok = seedmap.build(
        land_path=sys.argv[1], proj=proj, frame=(WIDTH, HEIGHT),
        land_seeds=land, sea_seeds=sea, variant=VARIANT,
        header="""Abstraction II: province outlines for zinejudge's map picture.
     Coastlines: Natural Earth 1:50m land (public domain), via the npm package
     world-atlas 2.0.2. Inner borders: Voronoi cells of seeds carried from the
     variant file's points and placed by hand. Made by
     games/outlines/abstraction2.py; see SOURCE.md.""",
        extra_land=BRIDGES, islands=ISLANDS, claims=CLAIMS, patches=PATCHES,
        keep=lambda outer: any(-60 < lo < 75 and 15 < la < 85 for lo, la in outer),
        tolerance=1.2, min_area=5.0, orphan=40.0,
    )
    if not ok and "--force" not in sys.argv:
        sys.exit("not written: the outline and the variant file disagree (see above)")
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
