"""Shared machinery of the variant outline generators (ardri.py, 1066.py...).

The method is standard.py's: Natural Earth land polygons (public domain,
npm package world-atlas 2.0.2, TopoJSON) are projected onto the picture's
frame; each province is the union of the Voronoi cells of its hand-placed
seed points (in longitude and latitude), cut along the coastline, land
seeds sharing out the land and sea seeds the water. A generator gives its
seeds, its projection and its frame, and `build` writes the outline file.

`check` reads the variant file and reports, on standard error, every pair
of provinces that border in the variant file but whose areas do not touch,
and every pair whose areas share a border though the variant file has
none between them; the generators refuse to write a file with either
(`--force` writes it anyway, to look at while placing seeds).
"""
import json
import sys
import tomllib

import numpy as np

import shapely
from shapely.geometry import LineString, MultiPoint, Point, Polygon, box
from shapely.ops import polylabel, unary_union


def topo_land(path):
    """The land polygons of a world-atlas TopoJSON file, in lon/lat."""
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


def borders(variant_path):
    """Pairs of province ids that border in the variant file (army or
    fleet, any coast), and the ids of its on-board provinces."""
    v = tomllib.load(open(variant_path, "rb"))
    pairs = set()
    ids = set()
    for p in v["provinces"]:
        if p.get("terrain") == "off-board":
            continue
        ids.add(p["id"])
        ns = list(p.get("army", [])) + list(p.get("fleet", []))
        for c in p.get("coasts", []) if isinstance(p.get("coasts"), list) else []:
            ns += list(c.get("fleet", []))
        for n in ns:
            n = n.split("/")[0]
            pairs.add(tuple(sorted((p["id"], n))))
    return {q for q in pairs if q[0] in ids and q[1] in ids}, ids


def along(a, b, tol=1.0):
    """Length of the boundary segments of `a` whose ends and middle lie
    within `tol` of the boundary of `b` (tests/judge/picture.rs's `shared`)."""
    total = 0.0
    bb = b.boundary
    for ring in [r for g in shapely.get_parts(a) for r in [g.exterior, *g.interiors]]:
        c = np.asarray(ring.coords)
        if len(c) < 2 or not ring.envelope.buffer(tol).intersects(bb.envelope):
            continue
        p, q = c[:-1], c[1:]
        m = (p + q) / 2
        near = [shapely.distance(shapely.points(x), bb) < tol for x in (p, q, m)]
        ok = near[0] & near[1] & near[2]
        total += float(np.hypot(*(q - p)[ok].T).sum())
    return total


def check(areas, variant_path, touch=2.0):
    """The provinces' areas against the variant file's borders: returns
    (missing, extra), lists of "A-B" pairs. A border is drawn when at least
    `touch` of one area's boundary runs within a pixel of the other, as
    tests/judge/picture.rs measures it (`along`); a border not in the file is one where
    they share `touch` or more (a corner where three or four meet, or a
    strait narrower than a pixel, is not a border)."""
    pairs, ids = borders(variant_path)
    names = [n for n in areas if n in ids]
    missing, extra = [], []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            key = tuple(sorted((a, b)))
            if key in pairs:
                # As the picture test measures it: boundary within a pixel.
                near = max(along(areas[a], areas[b]), along(areas[b], areas[a]))
                if near < touch + 0.5:  # a margin for the rounding to 0.1
                    missing.append(f"{a}-{b}")
            else:
                shared = areas[a].boundary.intersection(areas[b].buffer(0.4)).length
                if shared >= touch:
                    extra.append(f"{a}-{b} ({shared:.0f})")
    return missing, extra


def build(*, land_path, proj, frame, land_seeds, sea_seeds, variant, header,
          lakes=(), extra_land=(), claims=None, islands=None, patches=None, coasts=None,
          units=None, orphan=0.0,
          keep=lambda outer: True, tolerance=1.0, min_area=4.0):
    """The outline file's text, after checking it against the variant file.

    proj: (lon, lat) -> (x, y) on the picture; frame: (width, height).
    land_seeds / sea_seeds: id -> [(lon, lat), ...]; ids starting with "~"
    are the neutral land ("~land") and water ("~water").
    lakes: lon/lat rings cut out of the land and drawn as neutral water.
    extra_land: lon/lat rings added to the land (bridges, islands).
    claims: id -> lon/lat rings of water that province takes from the seas.
    islands: id -> [(lon, lat), ...]: each piece of land holding one of the
    points goes whole to that id, whatever the seeds say (an island group
    that is a province, or islands that belong to a coast across the water).
    patches: id -> lon/lat rings of land added to the map and given to
    that id (causeways across straits the rules let armies cross).
    coasts: "Abbr/xc" -> (lon, lat); units: id -> (lon, lat).
    keep: which Natural Earth polygons to read (by their outer ring).
    orphan: a sea's detached pieces smaller than this (in square pixels) go
    to the neighbouring sea they share most border with.
    """
    claims = claims or {}
    islands = islands or {}
    patches = {pid: unary_union([Polygon([proj(*q) for q in r]) for r in rings])
               for pid, rings in (patches or {}).items()}
    all_patches = unary_union(list(patches.values())) if patches else Polygon()
    coasts = coasts or {}
    units = units or {}
    width, height = frame
    frame_box = box(0, 0, width, height)
    polys = []
    for outer, holes in topo_land(land_path):
        if not keep(outer):
            continue
        p = Polygon([proj(*q) for q in outer], [[proj(*q) for q in h] for h in holes])
        if not p.is_valid:
            p = p.buffer(0)
        if p.intersects(frame_box):
            polys.append(p)
    polys += [Polygon([proj(*q) for q in r]) for r in extra_land]
    land = unary_union(polys).intersection(frame_box)
    lake = unary_union([Polygon([proj(*q) for q in r]) for r in lakes]) if lakes else None
    if lake is not None:
        land = land.difference(lake)
    water = frame_box.difference(land)
    pieces = list(getattr(land, "geoms", [land]))  # before the causeways join any
    if patches:
        land = land.union(all_patches.intersection(frame_box))
        water = water.difference(all_patches)
    isle = {}
    for pid, pts in islands.items():
        got = [g for g in pieces if any(g.contains(Point(proj(*q))) for q in pts)]
        isle[pid] = unary_union(got) if got else Polygon()
    all_isles = unary_union(list(isle.values())) if isle else Polygon()
    mainland = land.difference(all_isles)
    if lake is not None:
        water = water.difference(lake)

    by_pid = {}
    for table in (land_seeds, sea_seeds):
        seeds, owner = [], []
        for pid, pts in table.items():
            for q in pts:  # an id with no seeds has only its islands
                seeds.append(Point(proj(*q)))
                owner.append(pid)
        cells = shapely.voronoi_polygons(MultiPoint(seeds), extend_to=frame_box.buffer(400))
        for cell in cells.geoms:
            i = next(k for k, s in enumerate(seeds) if cell.contains(s))
            by_pid.setdefault(owner[i], []).append(cell)
    claimed = {pid: unary_union([Polygon([proj(*q) for q in r]) for r in rings]).intersection(water)
               for pid, rings in claims.items()}
    all_claims = unary_union(list(claimed.values())) if claimed else None
    areas = {}
    for pid in dict.fromkeys(list(land_seeds) + list(islands) + list(sea_seeds)):
        if pid in sea_seeds:
            part = unary_union(by_pid[pid]).intersection(water)
        else:
            part = unary_union(by_pid.get(pid, [])).intersection(mainland)
            part = part.union(isle.get(pid, Polygon())).difference(all_patches)
            part = part.union(patches.get(pid, Polygon()))
        if pid in claimed:
            part = part.union(claimed[pid])
        elif pid in sea_seeds and all_claims is not None:
            part = part.difference(all_claims)
        areas[pid] = part
    if lake is not None:
        areas["~water"] = areas.get("~water", Polygon()).union(lake)
    for pid, g in areas.items():
        parts = [p for p in shapely.get_parts(g) if p.geom_type == "Polygon" and not p.is_empty]
        areas[pid] = shapely.MultiPolygon(parts) if parts else Polygon()
    # A sea's small detached pieces (slivers the seeds left in a gulf) go to
    # the sea they share most border with.
    for pid in [p for p in sea_seeds if not p.startswith("~") and p not in claimed]:
        parts = sorted(shapely.get_parts(areas[pid]), key=lambda p: -p.area)
        for piece in parts[1:]:
            if piece.area > orphan:
                continue
            near = [(areas[o].boundary.intersection(piece.buffer(0.4)).length, o)
                    for o in sea_seeds if o != pid and not o.startswith("~")]
            best = max(near)
            if best[0] > 0:
                areas[pid] = areas[pid].difference(piece)
                areas[best[1]] = areas[best[1]].union(piece)
    names = list(areas)
    simplified = shapely.coverage_simplify([areas[n] for n in names], tolerance=tolerance)
    final = {}
    for n, geom in zip(names, simplified):
        geom = geom.buffer(0)
        polys = [g for g in getattr(geom, "geoms", [geom]) if g.geom_type == "Polygon"]
        final[n] = [g for g in polys if g.area > min_area]
    shapes = {n: unary_union(ps) for n, ps in final.items() if ps}
    missing, extra = check(shapes, variant)
    for m in missing:
        print(f"border missing: {m}", file=sys.stderr)
    for e in extra:
        print(f"border not in the variant file: {e}", file=sys.stderr)
    ok = not missing and not extra

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}">']
    out += ["<!-- " + header.strip() + " -->"]
    for n in names:
        polys = final[n]
        d = []
        for g in polys:
            for r in [g.exterior] + list(g.interiors):
                c = list(r.coords)[:-1]
                if len(c) < 3:
                    continue
                d.append("M" + "L".join(f"{x:.1f} {y:.1f}" for x, y in c) + "Z")
        if n.startswith("~"):
            if d:
                out.append(f'<path id="{n[1:]}" d="{"".join(d)}"/>')
            continue
        if not polys:
            print(f"no area: {n}", file=sys.stderr)
            ok = False
            continue
        big = max(polys, key=lambda g: g.area)
        if n in units:
            ux, uy = proj(*units[n])
        else:
            c = polylabel(big, tolerance=0.5)
            ux, uy = c.x, c.y
        out.append(f'<path id="{n}" data-unit="{ux:.1f} {uy:.1f}" d="{"".join(d)}"/>')
    for cid, q in coasts.items():
        x, y = proj(*q)
        out.append(f'<circle id="{cid}" cx="{x:.1f}" cy="{y:.1f}" r="3"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n", ok
