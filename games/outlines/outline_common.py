"""Shared code of the outline generators of games/outlines/ (1000ad.py,
1700ad.py): read Natural Earth's land from world-atlas's TopoJSON, project
it, share the land and the water out among a variant's provinces as the
Voronoi cells of seed points, write the outline SVG that
src/report/picture/outline.rs reads, and check the result against the
variant file's borders.

A variant's generator describes its map as a `Spec` and calls `run`. The
seeds of each province are, first, the point its variant file gives it
(`xy`, turned back into longitude and latitude by the projection stated
in that file's header), then the hand-placed seeds of the generator, which
give each province the shape geography and the rule text give it. Land
seeds share out the land, sea seeds the water; "~land" and "~water" are
the neutral parts (land and water that belong to no province).

The check, printed on stderr: bordering provinces whose areas do not share
at least a few pixels of border (the picture test
`bordering_provinces_touch_on_every_shipped_map` asks for 2), and
provinces that share a border in the picture but not in the variant file.
Needs shapely >= 2.1 (coverage_simplify keeps shared borders shared).
"""
import json
import math
import sys
import tomllib
from dataclasses import dataclass, field

import shapely
from shapely.geometry import MultiPoint, Point, Polygon, box
from shapely.ops import polylabel, unary_union

WIDTH = 1000.0


@dataclass
class Spec:
    """One variant's map: everything in longitude and latitude."""

    variant: str  # path of the variant file
    title: str  # first line of the SVG's comment
    to_lonlat: object  # function (x, y) of the variant file -> (lon, lat)
    centre: tuple  # (lon, lat) of the projection's centre
    window: tuple  # (lon0, lat0, lon1, lat1): the frame is its projection
    land: dict = field(default_factory=dict)  # pid -> extra seeds
    sea: dict = field(default_factory=dict)
    skip: set = field(default_factory=set)  # pids whose xy seed is left out
    bridges: list = field(default_factory=list)  # polygons added to the land
    cuts: list = field(default_factory=list)  # polygons taken from the land
    claims: dict = field(default_factory=dict)  # pid -> polygons it takes whole
    islands: dict = field(default_factory=dict)  # pid -> points: the land there
    coasts: dict = field(default_factory=dict)  # "Pid/xc" -> (lon, lat)
    units: dict = field(default_factory=dict)  # pid -> (lon, lat)
    # Straits where two lands and two seas all border across: (land a,
    # land b, sea w, sea e, (lon, lat) of one end, of the other end).
    straits: list = field(default_factory=list)
    # Pairs that do not border, opposite each other where four provinces
    # meet (see `corner`).
    corners: list = field(default_factory=list)
    fisheye: float = 0.6
    tolerance: float = 1.2  # coverage_simplify's, in pixels


def variant_provinces(path):
    """id -> (terrain, xy, set of bordering ids) from a variant file."""
    v = tomllib.load(open(path, "rb"))
    out = {}
    for p in v["provinces"]:
        nb = set(p.get("army", [])) | set(p.get("fleet", []))
        for lst in p.get("coasts", {}).values():
            nb |= set(lst)
        out[p["id"]] = (p["terrain"], tuple(p["xy"]), {n.split("/")[0] for n in nb})
    for pid, (_, _, nb) in out.items():
        for n in nb:
            out[n][2].add(pid)
    return out


def topo_land(path):
    """Natural Earth's land polygons from world-atlas's TopoJSON, as
    (outer ring, holes) in longitude and latitude."""
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


class Projection:
    """Lambert azimuthal equal-area about `centre`, with a mild fisheye so
    the crowded middle of the board gets more room than its rim, scaled so
    that `window` fills WIDTH pixels."""

    def __init__(self, centre, window, fisheye):
        self.lon0, self.lat0 = map(math.radians, centre)
        self.fisheye = fisheye
        lo0, la0, lo1, la1 = window
        edge = []
        for i in range(41):
            lo = lo0 + (lo1 - lo0) * i / 40
            la = la0 + (la1 - la0) * i / 40
            edge += [self.raw(lo, la0), self.raw(lo, la1), self.raw(lo0, la), self.raw(lo1, la)]
        # The frame: the smallest rectangle round the projected window.
        self.x0 = min(p[0] for p in edge)
        x1 = max(p[0] for p in edge)
        self.y0 = min(p[1] for p in edge)
        y1 = max(p[1] for p in edge)
        self.scale = WIDTH / (x1 - self.x0)
        self.height = round((y1 - self.y0) * self.scale)

    def raw(self, lon, lat):
        lam, phi = math.radians(lon), math.radians(lat)
        c = math.cos(self.lat0) * math.cos(phi) * math.cos(lam - self.lon0)
        k = math.sqrt(2 / (1 + math.sin(self.lat0) * math.sin(phi) + c))
        x = k * math.cos(phi) * math.sin(lam - self.lon0)
        y = -k * (math.cos(self.lat0) * math.sin(phi)
                  - math.sin(self.lat0) * math.cos(phi) * math.cos(lam - self.lon0))
        r = math.hypot(x, y)
        f = (1 + self.fisheye) / (1 + self.fisheye * r / 0.75)
        return x * f, y * f

    def __call__(self, lon, lat):
        x, y = self.raw(lon, lat)
        return ((x - self.x0) * self.scale, (y - self.y0) * self.scale)


def shared_length(a, b):
    """Length of `a`'s boundary that runs within a pixel of `b`'s, measured
    as the picture test (`bordering_provinces_touch_on_every_shipped_map`)
    does: a segment of `a`'s rings counts when both its ends and its middle
    lie within a pixel of `b`'s rings."""
    if a.is_empty or b.is_empty or a.distance(b) > 1.0:
        return 0.0
    near = b.boundary
    total = 0.0
    for g in getattr(a, "geoms", [a]):
        for r in [g.exterior] + list(g.interiors):
            c = shapely.get_coordinates(r)
            p, q = c[:-1], c[1:]
            m = (p + q) / 2
            ok = ((shapely.distance(shapely.points(p), near) < 1.0)
                  & (shapely.distance(shapely.points(q), near) < 1.0)
                  & (shapely.distance(shapely.points(m), near) < 1.0))
            total += float(((((q - p) ** 2).sum(axis=1)) ** 0.5)[ok].sum())
    return total


def rounded(polys):
    """The polygons as written to the SVG (to a tenth of a pixel)."""
    return unary_union([shapely.set_precision(g, 0.1) for g in polys]) if polys else Polygon()


def run(spec, land_path):
    provs = variant_provinces(spec.variant)
    land_ids = [p for p, (t, _, _) in provs.items() if t != "sea"]
    sea_ids = [p for p, (t, _, _) in provs.items() if t == "sea"]
    seeds = {p: ([] if p in spec.skip else [spec.to_lonlat(*provs[p][1])]) for p in provs}
    for table in (spec.land, spec.sea):
        for p, pts in table.items():
            seeds.setdefault(p, []).extend(pts)
    proj = Projection(spec.centre, spec.window, spec.fisheye)
    frame = box(0, 0, WIDTH, proj.height)
    lo0, la0, lo1, la1 = spec.window

    def poly(pts):
        return Polygon([proj(*q) for q in pts])

    land_polys = []
    for outer, holes in topo_land(land_path):
        if not any(lo0 - 25 < lo < lo1 + 25 and la0 - 10 < la < la1 + 15 for lo, la in outer):
            continue
        p = Polygon([proj(*q) for q in outer], [[proj(*q) for q in h] for h in holes])
        if not p.is_valid:
            p = p.buffer(0)
        if p.intersects(frame.buffer(200)):
            land_polys.append(p)
    # Islands are the pieces of the coastline data, before any bridge.
    pieces = list(getattr(unary_union(land_polys), "geoms", []))
    land = unary_union(land_polys + [poly(b) for b in spec.bridges])
    if spec.cuts:
        land = land.difference(unary_union([poly(c) for c in spec.cuts]))
    land = land.intersection(frame)
    water = frame.difference(land)

    by_pid = {}
    for ids, neutral in ((land_ids, "~land"), (sea_ids, "~water")):
        pts, owner = [], []
        for pid in ids + [neutral]:
            for q in seeds.get(pid, []):
                pts.append(Point(proj(*q)))
                owner.append(pid)
        cells = shapely.voronoi_polygons(MultiPoint(pts), extend_to=frame.buffer(400))
        for cell in cells.geoms:
            i = next(k for k, s in enumerate(pts) if cell.contains(s))
            by_pid.setdefault(owner[i], []).append(cell)
    claimed = {p: unary_union([poly(c) for c in cs]) for p, cs in spec.claims.items()}
    for pid, pts in spec.islands.items():
        got = [g for g in pieces if any(g.contains(Point(proj(*q))) for q in pts)]
        for q in pts:
            if not any(g.contains(Point(proj(*q))) for g in pieces):
                print(f"{pid}: no land at {q}", file=sys.stderr)
        got = unary_union(got).intersection(land)
        claimed[pid] = unary_union([got] + ([claimed[pid]] if pid in claimed else []))
    areas = {}
    for pid in land_ids + ["~land"] + sea_ids + ["~water"]:
        if pid not in by_pid:
            if not pid.startswith("~"):
                print(f"{pid}: no seed", file=sys.stderr)
            continue
        cell = unary_union(by_pid[pid])
        on_land = pid in land_ids or pid == "~land"
        part = cell.intersection(land if on_land else water)
        for other, c in claimed.items():
            if other == pid:
                part = part.union(c.intersection(frame))
            else:
                part = part.difference(c)
        areas[pid] = part
    names = list(areas)
    simplified = shapely.coverage_simplify([areas[n] for n in names], tolerance=spec.tolerance)
    simplified = dict(zip(names, simplified))
    for st in spec.straits:
        strait(simplified, proj, *st)
    for c in spec.corners:
        corner(simplified, *c)
    shapes = {}
    water_ids = set(sea_ids)
    stray = []
    for n, geom in simplified.items():
        geom = geom.buffer(0)
        polys = [g for g in getattr(geom, "geoms", [geom]) if g.geom_type == "Polygon"]
        # Slivers the Voronoi cells leave on far shores are dropped.
        big = max((g.area for g in polys), default=0.0)
        keep = [g for g in polys if g.area > 10.0 or g.area == big]
        if n in water_ids:
            # A sea's slivers (a loch, a fjord's end) become neutral water.
            stray += [g for g in polys if not (g.area > 10.0 or g.area == big)]
        # And the holes they leave: islets too small to draw are water.
        shapes[n] = [Polygon(g.exterior, [r for r in g.interiors if Polygon(r).area > 10.0])
                     for g in keep]
    shapes["~water"] = shapes.get("~water", []) + stray
    check(provs, shapes)
    print(svg(spec, proj, shapes))


def strait(areas, proj, a, b, w, e, p, q, half=5.0):
    """A strait that two lands and two seas all cross: four areas meeting
    there, where a plane map lets only one diagonal pair share a border.
    The strait becomes a channel 0.8 px wide between `a` and `b` (so they
    are within a pixel of each other, as the picture test measures
    touching), split along its length between `w` (on `a`'s side) and `e`,
    which so share a border the strait's length. Drawn, it is the narrow
    water of the real strait."""
    from shapely.affinity import rotate, translate

    (x0, y0), (x1, y1) = proj(*p), proj(*q)
    length = math.hypot(x1 - x0, y1 - y0)
    ang = math.degrees(math.atan2(y1 - y0, x1 - x0))

    def band(lo, hi):
        g = box(0, lo, length, hi)
        return translate(rotate(g, ang, origin=(0, 0)), x0, y0)

    whole = band(-half, half)
    sides = [(band(-half, -0.4), band(-0.4, 0.0)), (band(0.4, half), band(0.0, 0.4))]
    if areas[a].intersection(sides[0][0]).area < areas[a].intersection(sides[1][0]).area:
        sides.reverse()
    for n in areas:
        areas[n] = areas[n].difference(whole)
    areas[a] = areas[a].union(sides[0][0])
    areas[w] = areas[w].union(sides[0][1])
    areas[b] = areas[b].union(sides[1][0])
    areas[e] = areas[e].union(sides[1][1])


def corner(areas, a, b, margin=1.0):
    """Four areas round a point, `a` and `b` opposite each other and not
    bordering, the other two bordering both: Voronoi cells leave `a` and
    `b` sharing a short border. The diamond round that border is split
    among the four so that `a` and `b` (and the other two) meet at its
    centre only."""
    line = areas[a].boundary.intersection(areas[b].buffer(1.0))
    pts = shapely.get_coordinates(line)
    if len(pts) < 2:
        return
    (i, j) = max(((i, j) for i in range(len(pts)) for j in range(i + 1, len(pts))),
                 key=lambda ij: math.dist(pts[ij[0]], pts[ij[1]]))
    (x0, y0), (x1, y1) = pts[i], pts[j]
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    r = math.dist((x0, y0), (x1, y1)) / 2 + margin
    ux, uy = (x1 - x0) / (2 * r - 2 * margin or 1), (y1 - y0) / (2 * r - 2 * margin or 1)
    nx, ny = -uy, ux

    def at(s, t):
        return (mx + s * ux * r + t * nx * r, my + s * uy * r + t * ny * r)

    o = (mx, my)
    pieces = [Polygon([o, at(-0.5, -0.5), at(-1, 0), at(-0.5, 0.5)]),  # end 0
              Polygon([o, at(-0.5, -0.5), at(0, -1), at(0.5, -0.5)]),  # side -n
              Polygon([o, at(0.5, -0.5), at(1, 0), at(0.5, 0.5)]),  # end 1
              Polygon([o, at(-0.5, 0.5), at(0, 1), at(0.5, 0.5)])]  # side +n
    diamond = unary_union(pieces)
    if areas[a].intersection(pieces[1]).area < areas[a].intersection(pieces[3]).area:
        a, b = b, a
    ends = []
    for k in (0, 2):
        others = [n for n in areas if n not in (a, b)]
        ends.append(max(others, key=lambda n: areas[n].intersection(pieces[k]).area))
    for n in areas:
        areas[n] = areas[n].difference(diamond)
    for n, piece in zip((ends[0], a, ends[1], b), pieces):
        areas[n] = areas[n].union(piece)


def check(provs, shapes):
    """Print the pairs whose touching disagrees with the variant file."""
    geo = {p: rounded(s) for p, s in shapes.items() if s and not p.startswith("~")}
    for p in provs:
        if p not in geo:
            print(f"{p}: no area", file=sys.stderr)
    ids = sorted(geo)
    apart, extra = [], []
    tree = shapely.STRtree([geo[i] for i in ids])
    for i, a in enumerate(ids):
        near = {ids[j] for j in tree.query(geo[a].buffer(1.5))}
        for b in ids[i + 1:]:
            bordering = b in provs[a][2]
            if b not in near:
                if bordering:
                    apart.append(f"{a}-{b}")
                continue
            s = max(shared_length(geo[a], geo[b]), shared_length(geo[b], geo[a]))
            if bordering and s < 2.5:
                apart.append(f"{a}-{b}({s:.1f})")
            elif not bordering and s > 2.5:
                c = geo[a].boundary.intersection(geo[b].buffer(1.0)).centroid
                extra.append(f"{a}-{b}({s:.1f} at {c.x:.0f},{c.y:.0f})")
    print(f"bordering but apart ({len(apart)}): {' '.join(apart)}", file=sys.stderr)
    print(f"touching but not bordering ({len(extra)}): {' '.join(extra)}", file=sys.stderr)


def ring_d(polys):
    d = []
    for g in polys:
        for r in [g.exterior] + list(g.interiors):
            c = list(r.coords)[:-1]
            if len(c) >= 3:
                d.append("M" + "L".join(f"{x:.1f} {y:.1f}" for x, y in c) + "Z")
    return "".join(d)


def svg(spec, proj, shapes):
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH:.0f} {proj.height}">',
        f"<!-- {spec.title}: province outlines for zinejudge's map picture.",
        "     Coastlines: Natural Earth 1:50m land (public domain), via the npm package",
        "     world-atlas 2.0.2. Inner borders: Voronoi cells of seeds (see the generator).",
        "     Made by games/outlines/outline_common.py; see games/outlines/SOURCE.md. -->",
    ]
    for n, polys in shapes.items():
        if not polys:
            continue
        if n.startswith("~"):
            out.append(f'<path id="{n[1:]}" d="{ring_d(polys)}"/>')
            continue
        big = max(polys, key=lambda g: g.area)
        if n in spec.units:
            ux, uy = proj(*spec.units[n])
        else:
            c = polylabel(big, tolerance=0.5)
            ux, uy = c.x, c.y
        out.append(f'<path id="{n}" data-unit="{ux:.1f} {uy:.1f}" d="{ring_d(polys)}"/>')
    for cid, q in spec.coasts.items():
        x, y = proj(*q)
        out.append(f'<circle id="{cid}" cx="{x:.1f}" cy="{y:.1f}" r="3"/>')
    out.append("</svg>")
    return "\n".join(out)
