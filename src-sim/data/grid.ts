/**
 * A uniform spatial grid: cells of CELL degrees, each holding the row numbers of the incidents inside
 * it. A circle query reads only the cells its bounding box touches.
 */
export const CELL = 0.01;
const ROWS = 20_000;

const cellX = (lon: number): number => Math.floor((lon + 180) / CELL);
const cellY = (lat: number): number => Math.floor((lat + 90) / CELL);

export class Grid {
  private readonly cells = new Map<number, number[]>();

  add(row: number, lat: number, lon: number): void {
    const key = cellX(lon) * ROWS + cellY(lat);
    const list = this.cells.get(key);
    if (list) list.push(row);
    else this.cells.set(key, [row]);
  }

  /** The row lists of the cells touching the box [minLat, maxLat] × [minLon, maxLon]. */
  listsInBox(minLat: number, maxLat: number, minLon: number, maxLon: number): number[][] {
    const x0 = cellX(Math.max(-180, minLon));
    const x1 = cellX(Math.min(180, maxLon));
    const y0 = cellY(Math.max(-90, minLat));
    const y1 = cellY(Math.min(90, maxLat));
    const out: number[][] = [];
    if ((x1 - x0 + 1) * (y1 - y0 + 1) > this.cells.size) {
      // A box wider than the data: walk the occupied cells instead of the box's cells.
      for (const [key, list] of this.cells) {
        const x = Math.floor(key / ROWS);
        const y = key - x * ROWS;
        if (x >= x0 && x <= x1 && y >= y0 && y <= y1) out.push(list);
      }
      return out;
    }
    for (let x = x0; x <= x1; x++) {
      for (let y = y0; y <= y1; y++) {
        const list = this.cells.get(x * ROWS + y);
        if (list) out.push(list);
      }
    }
    return out;
  }
}
