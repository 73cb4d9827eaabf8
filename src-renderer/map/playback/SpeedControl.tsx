/** Playback's speed: how long each period stays on screen while playing, ½× to 4× (1× = 0.8 s). */
import { PLAY_SPEEDS, playInterval, speedText, type PlaySpeed } from './playbackModel';

export function SpeedControl({
  speed,
  onChange,
}: {
  speed: PlaySpeed;
  onChange: (speed: PlaySpeed) => void;
}) {
  return (
    <div className="segmented" role="group" aria-label="Speed">
      {PLAY_SPEEDS.map((s) => (
        <button
          key={s}
          type="button"
          aria-pressed={speed === s}
          title={`${(playInterval(s) / 1000).toLocaleString('en-US')} s a period`}
          onClick={() => onChange(s)}
        >
          {speedText(s)}
        </button>
      ))}
    </div>
  );
}
