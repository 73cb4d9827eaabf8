# Generates src-main/engine/geo/zones.json from PROJ's proj.db (Debian proj-bin):
# the NAD83 State Plane zones (SPCS83 conversions; metres, US survey feet, international feet),
# and the NAD83 and WGS 84 UTM zones of the northern hemisphere, with PROJ strings and areas of use.
import sqlite3, subprocess, json
db = sqlite3.connect('/usr/share/proj/proj.db')
q = """
select p.code, p.name, e.south_lat, e.west_lon, e.north_lat, e.east_lon, c.name
from projected_crs p
join conversion c on c.auth_name = p.conversion_auth_name and c.code = p.conversion_code
join usage u on u.object_table_name = 'projected_crs' and u.object_auth_name = p.auth_name and u.object_code = p.code
join extent e on e.auth_name = u.extent_auth_name and e.code = u.extent_code
where p.auth_name = 'EPSG' and p.deprecated = 0 and (
  (p.name like 'NAD83 / %' and c.name like 'SPCS83 %' and p.name not like '%(%' )
  or (p.name like 'NAD83 / %(ftUS)' and c.name like 'SPCS83 %')
  or (p.name like 'NAD83 / %(ft)' and c.name like 'SPCS83 %')
  or p.name glob 'NAD83 / UTM zone [0-9]*N'
  or p.name glob 'WGS 84 / UTM zone [0-9]*N')
group by p.code order by p.code
"""
out = []
for code, name, s, w, n, e, conv in db.execute(q):
    proj = subprocess.run(['projinfo', f'EPSG:{code}', '-o', 'PROJ', '-q'], capture_output=True, text=True).stdout.strip()
    proj = proj.replace(' +type=crs', '').strip()
    unit = 'us-ft' if '(ftUS)' in name else 'ft' if '(ft)' in name else 'm'
    kind = 'utm' if 'UTM zone' in name else 'state-plane'
    out.append({'epsg': code, 'name': name, 'kind': kind, 'unit': unit, 'proj4': proj, 'area': [round(w, 3), round(s, 3), round(e, 3), round(n, 3)]})
json.dump(out, open('src-main/engine/geo/zones.json', 'w'), separators=(',', ':'))
print(len(out), sum(1 for o in out if o['kind']=='state-plane'), [o for o in out if o['epsg'] in (2276, 2253, 32616)])
