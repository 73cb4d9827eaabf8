/** The heat layer: the worker's density picture of the visible map, scaled up smoothly. */
import type { ClusterClient } from './clusterClient';
import { CanvasLayer } from './canvasLayer';
import { perf } from './perf';

export class HeatLayer extends CanvasLayer {
  private readonly scratch = document.createElement('canvas');
  private active = false;

  constructor(private readonly client: ClusterClient) {
    super('blotter-heat');
  }

  refresh(): void {
    this.active = true;
    this.onViewChanged();
  }

  protected onViewChanged(): void {
    const map = this.map;
    if (!map || !this.active) return;
    const size = map.getSize();
    const origin = map.getPixelBounds().min ?? map.getPixelOrigin();
    void this.client
      .heat({ left: origin.x, top: origin.y, width: size.x, height: size.y, zoom: map.getZoom() })
      .then((image) => {
        const ctx = this.context();
        if (!image || !ctx || this.map !== map) return;
        this.scratch.width = image.width;
        this.scratch.height = image.height;
        this.scratch
          .getContext('2d')
          ?.putImageData(
            new ImageData(image.data as Uint8ClampedArray<ArrayBuffer>, image.width, image.height),
            0,
            0,
          );
        ctx.imageSmoothingEnabled = true;
        ctx.globalAlpha = 0.85;
        ctx.drawImage(this.scratch, 0, 0, image.width * image.cell, image.height * image.cell);
        ctx.globalAlpha = 1;
        perf().heatDraws++;
      });
  }
}
