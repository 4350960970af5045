#!/usr/bin/env python3
"""Make games/outlines/standard.svg: the standard map's province outlines.

Coastlines are Natural Earth's 1:50m land polygons (public domain), as
shipped by the npm package world-atlas 2.0.2 (`land-50m.json`, TopoJSON).
The borders between provinces are not real-world borders (the board's are
those of 1901 as the game draws them): they are the Voronoi partition of
seed points placed by hand below, in longitude and latitude, several to a
province to follow the board's shapes, cut along the coastline. Land no
province claims (Ireland, Iceland, Corsica, North Africa east of Tunis...)
is drawn as neutral land.

Usage: python3 standard.py PATH/TO/land-50m.json > standard.svg
Needs shapely >= 2.1 (coverage_simplify keeps shared borders shared).
"""
import json
import math
import sys

import shapely
from shapely.geometry import MultiPoint, Point, Polygon, box
from shapely.ops import polylabel, unary_union

# Hand-placed seeds: province id -> [(lon, lat), ...]. Land seeds claim
# land, sea seeds claim water. "~land" and "~water" are the neutral parts.
LAND = {
    "Cly": [(-5.2, 56.6), (-5.0, 57.8), (-4.6, 58.4)],
    "Edi": [(-3.1, 55.9), (-2.4, 57.3), (-3.6, 58.3), (-3.9, 57.0)],
    "Lvp": [(-2.8, 53.6), (-3.0, 54.7), (-2.7, 53.1), (-4.2, 55.2)],
    "Yor": [(-1.2, 53.9), (-1.6, 54.9), (-0.6, 53.3), (-1.4, 53.0)],
    "Wal": [(-3.7, 52.3), (-4.6, 50.5), (-3.2, 51.2), (-2.3, 52.5)],
    "Lon": [(-0.2, 51.5), (1.0, 52.4), (-1.2, 51.1)],
    "Nwy": [(10.6, 60.2), (6.6, 60.6), (8.5, 58.6), (12.5, 64.8), (16.0, 67.8),
            (20.0, 69.3), (25.2, 70.3), (28.6, 70.0)],
    "Swe": [(15.5, 59.2), (14.0, 56.5), (18.0, 62.5), (20.2, 66.2), (18.5, 57.5),
            (12.5, 62.0), (17.5, 65.2), (22.0, 67.4)],
    "Fin": [(25.0, 61.5), (26.5, 64.2), (27.0, 67.0), (24.6, 68.4), (22.6, 60.6)],
    "StP": [(30.5, 60.0), (33.8, 63.0), (35.0, 67.3), (41.0, 65.3), (46.0, 64.0),
            (37.0, 60.0), (32.5, 59.0)],
    "Mos": [(37.6, 55.7), (44.0, 57.5), (46.0, 53.0), (40.0, 52.8), (31.0, 55.0),
            (34.0, 57.5), (47.0, 60.0)],
    "Lvn": [(24.8, 57.2), (26.0, 58.6), (26.5, 55.5), (23.3, 56.5), (28.5, 57.0)],
    "War": [(20.6, 52.1), (19.3, 50.6), (22.8, 51.0), (23.5, 53.2)],
    "Ukr": [(30.5, 50.3), (27.0, 49.5), (34.5, 50.0), (32.0, 48.3), (29.0, 51.8)],
    "Sev": [(34.0, 45.0), (38.0, 46.6), (44.0, 46.5), (40.0, 44.5), (47.0, 48.0),
            (36.0, 47.0), (44.0, 43.5), (30.5, 46.8)],
    "Arm": [(44.5, 40.0), (41.5, 40.4), (42.5, 38.7), (45.5, 41.6)],
    "Ank": [(33.0, 40.2), (35.8, 41.0), (31.5, 41.0), (38.0, 40.6)],
    "Smy": [(27.6, 38.4), (31.5, 37.8), (35.0, 37.3), (29.5, 39.3), (38.0, 38.5)],
    "Con": [(28.9, 41.0), (27.2, 41.6), (29.6, 40.4), (26.9, 40.7), (30.2, 40.9)],
    "Syr": [(37.0, 35.4), (36.2, 33.6), (35.3, 32.0), (39.5, 36.4)],
    "Bul": [(25.5, 42.7), (27.5, 42.9), (25.0, 41.3), (23.6, 42.0)],
    "Rum": [(25.0, 45.5), (28.2, 45.0), (27.2, 47.0), (23.0, 44.6), (24.0, 46.6)],
    "Ser": [(20.5, 43.8), (21.6, 42.6), (19.7, 44.9)],
    "Gre": [(22.0, 39.5), (23.4, 38.0), (22.9, 40.6), (22.2, 37.3)],
    "Alb": [(20.0, 41.2), (20.1, 40.2)],
    "Bud": [(19.0, 47.4), (22.6, 47.3), (17.5, 46.6), (21.3, 47.8), (20.4, 46.0)],
    "Gal": [(23.0, 49.8), (25.6, 48.5), (21.0, 49.7), (25.5, 50.4), (18.6, 49.7)],
    "Vie": [(16.3, 48.2), (14.0, 47.7), (15.3, 47.0), (17.9, 48.3)],
    "Boh": [(14.4, 50.0), (16.6, 49.4), (12.8, 49.6), (13.8, 49.0)],
    "Tri": [(13.8, 45.6), (16.0, 45.0), (17.8, 43.8), (15.5, 46.3), (18.8, 42.7)],
    "Tyr": [(11.4, 47.2), (12.4, 46.4), (10.3, 46.9), (13.2, 48.0), (10.1, 46.3)],
    "Ven": [(12.3, 45.5), (11.0, 45.3), (11.5, 44.5), (12.4, 44.0)],
    "Pie": [(7.7, 45.0), (8.5, 44.4), (7.2, 44.1), (9.3, 45.8)],
    "Tus": [(11.2, 43.5), (11.3, 42.7), (10.3, 44.0)],
    "Rom": [(12.5, 41.9), (13.3, 42.6), (13.9, 41.4)],
    "Nap": [(15.0, 40.6), (16.2, 39.2), (14.2, 37.5), (15.8, 38.3), (12.8, 37.8)],
    "Apu": [(15.6, 41.6), (17.4, 40.7), (14.2, 42.2), (13.5, 43.1), (18.1, 40.1)],
    "Mun": [(11.6, 48.2), (9.3, 48.5), (10.3, 50.3), (12.5, 49.0), (8.7, 47.8), (12.6, 50.8)],
    "Kie": [(10.0, 54.2), (9.5, 53.0), (8.4, 52.4), (11.2, 53.6), (10.0, 51.6)],
    "Ber": [(13.4, 52.5), (12.8, 53.9), (14.6, 53.2)],
    "Pru": [(20.4, 54.6), (17.4, 54.0), (21.9, 55.4), (18.8, 53.6)],
    "Sil": [(17.0, 51.1), (15.3, 51.2), (18.5, 50.6)],
    "Ruh": [(7.2, 51.4), (7.2, 50.2), (8.6, 51.1), (9.3, 50.1)],
    "Hol": [(5.3, 52.2), (6.2, 53.0), (4.6, 51.7)],
    "Bel": [(4.4, 50.8), (5.5, 50.1), (3.3, 51.0)],
    "Den": [(9.3, 56.1), (12.0, 55.5), (10.0, 57.2), (10.4, 55.3)],
    "Bur": [(4.8, 47.3), (6.0, 48.6), (5.5, 46.2), (4.3, 48.6), (7.2, 48.2)],
    "Pic": [(2.3, 49.9), (3.0, 50.4), (1.0, 49.7)],
    "Par": [(2.3, 48.8), (1.5, 47.8), (3.0, 47.8)],
    "Bre": [(-3.0, 48.2), (-1.0, 48.4), (-4.0, 48.4), (-1.5, 47.2)],
    "Gas": [(-0.5, 44.6), (1.2, 45.5), (0.3, 43.4), (2.5, 46.0)],
    "Mar": [(5.4, 43.6), (3.3, 43.7), (5.5, 44.6), (2.2, 42.7)],
    "Swi": [(8.2, 46.8), (7.0, 46.4), (9.6, 46.7)],
    "Spa": [(-3.7, 40.4), (-5.5, 37.6), (-0.8, 40.0), (-1.0, 42.0), (-5.5, 42.6),
            (-3.5, 37.3), (1.8, 41.7)],
    "Por": [(-8.3, 40.1), (-8.0, 38.1), (-8.2, 41.6)],
    "Naf": [(-5.5, 33.6), (0.0, 34.5), (4.5, 35.5), (-8.0, 31.5), (3.0, 33.0)],
    "Tun": [(9.6, 35.2), (10.1, 36.8), (9.3, 33.3)],
    "~land": [(-8.0, 53.3), (-19.0, 64.8), (9.1, 42.1), (9.0, 40.0), (2.9, 39.6),
              (24.8, 35.2), (33.0, 35.0), (15.0, 31.0), (20.0, 31.0), (25.0, 30.5),
              (30.5, 29.5), (48.0, 36.0), (46.0, 33.0), (43.0, 33.0), (-7.0, 62.0),
              (38.5, 31.0), (41.0, 34.0), (37.5, 29.0),
              (13.0, 32.0), (50.0, 40.0), (55.0, 45.0), (56.0, 55.0), (55.0, 65.0),
              (58.0, 70.0), (18.5, 78.0), (-40.0, 70.0), (52.0, 70.5)],
}
SEA = {
    "NAO": [(-22.0, 58.0), (-15.0, 53.0), (-28.0, 63.0), (-12.0, 58.0), (-8.0, 56.0),
            (-18.0, 66.5), (-30.0, 54.0)],
    "MAO": [(-14.0, 45.0), (-18.0, 38.0), (-12.0, 33.0), (-7.0, 45.5), (-22.0, 46.0),
            (-9.0, 36.0), (-3.5, 45.5), (-10.5, 48.5)],
    "NWG": [(0.0, 66.0), (-8.0, 70.0), (8.0, 68.0), (-3.0, 62.5), (4.0, 62.5), (15.0, 71.5),
            (-3.5, 59.6)],
    "BAR": [(35.0, 72.5), (25.0, 73.0), (45.0, 71.0), (40.0, 68.5), (22.0, 71.0)],
    "NTH": [(3.0, 56.0), (2.0, 58.5), (3.5, 53.5), (1.0, 60.5), (5.0, 57.5), (7.0, 56.3),
            (3.0, 51.9)],
    "ENG": [(-3.0, 49.9), (0.6, 50.4), (-5.6, 49.6), (1.2, 50.7)],
    "IRI": [(-5.0, 53.6), (-7.5, 51.2), (-5.5, 51.7)],
    "HEL": [(7.5, 54.3), (8.3, 55.0)],
    "SKA": [(10.0, 57.9), (9.0, 58.0), (11.4, 57.4)],
    "BAL": [(18.0, 56.5), (14.5, 54.8), (20.0, 58.5), (12.5, 54.6), (16.0, 55.8)],
    "BOT": [(20.0, 61.5), (22.5, 64.5), (26.0, 59.9), (23.5, 59.5), (19.5, 60.0), (29.0, 60.1)],
    "LYO": [(4.5, 42.5), (7.0, 43.5), (3.6, 41.5), (8.8, 43.7)],
    "WES": [(2.5, 38.5), (-2.0, 36.2), (6.5, 38.5), (-4.5, 36.0), (8.0, 37.4)],
    "TYS": [(12.0, 40.0), (10.5, 42.7), (13.5, 38.8), (10.0, 38.5)],
    "ION": [(18.0, 37.0), (20.0, 35.0), (15.0, 34.5), (19.2, 39.0), (17.5, 39.4),
            (22.5, 36.8), (20.0, 32.0), (16.0, 36.8)],
    "ADR": [(15.5, 43.0), (18.5, 41.6), (13.0, 44.6), (17.0, 42.6)],
    "AEG": [(25.0, 38.5), (25.0, 36.5), (24.3, 40.2), (26.5, 40.4)],
    "EAS": [(30.0, 34.0), (33.0, 33.0), (27.0, 34.5), (34.5, 36.2), (31.5, 31.8)],
    "BLA": [(34.0, 43.0), (30.5, 43.5), (38.0, 43.0), (31.0, 41.7), (35.5, 45.8),
            (29.8, 45.8), (37.5, 41.3)],
    "~water": [(50.0, 42.0), (51.0, 39.0), (37.0, 25.0), (50.0, 27.0), (55.0, 76.0)],
}
# Water the Straits province takes (the Sea of Marmara and the straits).
CON_WATER = [(26.1, 40.0), (30.0, 40.0), (30.0, 41.3), (28.6, 41.3), (26.9, 40.9), (26.1, 40.4)]
# Coast spots for split coasts.
COASTS = {
    "StP/nc": (37.5, 67.8), "StP/sc": (29.8, 60.4),
    "Spa/nc": (-5.5, 43.0), "Spa/sc": (-3.5, 37.2),
    "Bul/ec": (27.5, 42.9), "Bul/sc": (24.8, 41.1),
}
# Where units stand, where the label-free centre of the area is a poor spot.
UNITS = {"Nap": (15.6, 39.9), "Nwy": (9.0, 60.6), "Swe": (15.0, 60.0), "Den": (9.3, 56.0)}
# The Sound (Oresund): Denmark and Sweden border each other on the board.
SOUND = [(12.45, 55.9), (12.75, 55.9), (12.85, 56.15), (12.55, 56.15)]

LON0, LAT0 = math.radians(8.0), math.radians(50.0)
WINDOW = (-21.0, 30.5, 47.5, 73.5)  # used to pick the projected frame
WIDTH = 1000.0
FISHEYE = 1.2


def laea(lon, lat):
    """Lambert azimuthal equal-area, centred on Central Europe, with a mild
    fisheye (as the board itself has) so the crowded west and centre get
    more room than the Russian plain and the Atlantic."""
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


def topo_land(path):
    t = json.load(open(path))
    sx, sy = t["transform"]["scale"]
    tx, ty = t["transform"]["translate"]
    arcs = []
    for arc in t["arcs"]:
        x = y = 0
        pts = []
        for dx, dy in arc:
            x += dx
            y += dy
            pts.append((x * sx + tx, y * sy + ty))
        arcs.append(pts)

    def ring(idx):
        out = []
        for i in idx:
            a = arcs[i] if i >= 0 else arcs[~i][::-1]
            out.extend(a if not out else a[1:])
        return out

    polys = []
    for g in t["objects"]["land"]["geometries"]:
        for poly in g["arcs"]:
            rings = [ring(r) for r in poly]
            polys.append((rings[0], rings[1:]))
    return polys


def main():
    lo0, la0, lo1, la1 = WINDOW
    # The frame: the projected window's corners and edges.
    edge = [laea(lo, la) for lo in (lo0, lo1) for la in (la0, la1)]
    edge += [laea(lo0 + (lo1 - lo0) * i / 20, la1) for i in range(21)]
    xs = [p[0] for p in edge]
    ys = [p[1] for p in edge]
    # Crop: the classic board is wider than tall; keep the seas to the north.
    fx0, fx1 = min(xs) + 0.06, max(xs) - 0.02
    fy0, fy1 = laea(15, 72.0)[1], laea(12, la0)[1] - 0.02
    scale = WIDTH / (fx1 - fx0)
    height = round((fy1 - fy0) * scale)

    def proj(lon, lat):
        x, y = laea(lon, lat)
        return ((x - fx0) * scale, (y - fy0) * scale)

    frame = box(0, 0, WIDTH, height)
    land_polys = []
    for outer, holes in topo_land(sys.argv[1]):
        if not any(-60 < lo < 75 and 20 < la < 85 for lo, la in outer):
            continue
        p = Polygon([proj(*q) for q in outer], [[proj(*q) for q in h] for h in holes])
        if not p.is_valid:
            p = p.buffer(0)
        if p.intersects(frame.buffer(200)):
            land_polys.append(p)
    land = unary_union(land_polys + [Polygon([proj(*q) for q in SOUND])])
    land = land.intersection(frame)
    water = frame.difference(land)

    # Two partitions: land seeds share out the land, sea seeds the water.
    by_pid = {}
    for table in (LAND, SEA):
        seeds, owner = [], []
        for pid, pts in table.items():
            for q in pts:
                seeds.append(Point(proj(*q)))
                owner.append(pid)
        cells = shapely.voronoi_polygons(MultiPoint(seeds), extend_to=frame.buffer(400))
        for cell in cells.geoms:
            i = next(k for k, s in enumerate(seeds) if cell.contains(s))
            by_pid.setdefault(owner[i], []).append(cell)
    con_water = Polygon([proj(*q) for q in CON_WATER]).intersection(water)
    areas = {}
    for pid in list(LAND) + list(SEA):
        cell = unary_union(by_pid[pid])
        part = cell.intersection(land if pid in LAND else water)
        if pid == "Con":
            part = part.union(con_water)
        elif pid in SEA:
            part = part.difference(con_water)
        areas[pid] = part
    names = list(areas)
    simplified = shapely.coverage_simplify([areas[n] for n in names], tolerance=1.6)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH:.0f} {height}">',
        "<!-- Standard Diplomacy: province outlines for zinejudge's map picture.",
        "     Coastlines: Natural Earth 1:50m land (public domain), via the npm package",
        "     world-atlas 2.0.2. Inner borders: Voronoi cells of hand-placed seeds.",
        "     Made by games/outlines/standard.py; see games/outlines/SOURCE.md. -->",
    ]
    for n, geom in zip(names, simplified):
        geom = geom.buffer(0)
        polys = [g for g in getattr(geom, "geoms", [geom]) if g.geom_type == "Polygon"]
        polys = [g for g in polys if g.area > 6.0]
        d = []
        for g in polys:
            for r in [g.exterior] + list(g.interiors):
                c = list(r.coords)[:-1]
                if len(c) < 3:
                    continue
                d.append("M" + "L".join(f"{x:.1f} {y:.1f}" for x, y in c) + "Z")
        if n.startswith("~"):
            out.append(f'<path id="{n[1:]}" d="{"".join(d)}"/>')
            continue
        big = max(polys, key=lambda g: g.area)
        if n in UNITS:
            ux, uy = proj(*UNITS[n])
        else:
            c = polylabel(big, tolerance=0.5)
            ux, uy = c.x, c.y
        out.append(f'<path id="{n}" data-unit="{ux:.1f} {uy:.1f}" d="{"".join(d)}"/>')
    for cid, q in COASTS.items():
        x, y = proj(*q)
        out.append(f'<circle id="{cid}" cx="{x:.1f}" cy="{y:.1f}" r="3"/>')
    out.append("</svg>")
    print("\n".join(out))


if __name__ == "__main__":
    main()
