/** Time playback's buttons: Day or Week steps, step back, play/pause, step forward, the speed, close. */
import type { PlaybackStep, PlaySpeed } from './playbackModel';
import { SpeedControl } from './SpeedControl';
import styles from './playback.module.css';

type Props = {
  step: PlaybackStep;
  onStep: (step: PlaybackStep) => void;
  canBack: boolean;
  canForward: boolean;
  onBack: () => void;
  onForward: () => void;
  playing: boolean;
  canPlay: boolean;
  onPlay: () => void;
  speed: PlaySpeed;
  setSpeed: (speed: PlaySpeed) => void;
  onClose: () => void;
};

export function PlaybackButtons(props: Props) {
  const {
    step,
    onStep,
    canBack,
    canForward,
    onBack,
    onForward,
    playing,
    canPlay,
    onPlay,
    speed,
    setSpeed,
    onClose,
  } = props;
  return (
    <div className={styles.row}>
      <div className="segmented" role="group" aria-label="Step">
        {(['day', 'week'] as const).map((s) => (
          <button key={s} type="button" aria-pressed={step === s} onClick={() => onStep(s)}>
            {s === 'day' ? 'Day' : 'Week'}
          </button>
        ))}
      </div>
      <button type="button" onClick={onBack} disabled={!canBack}>
        ◀ Step back
      </button>
      <button type="button" onClick={onPlay} disabled={!canPlay} aria-pressed={playing}>
        {playing ? '❚❚ Pause' : '▶ Play'}
      </button>
      <button type="button" onClick={onForward} disabled={!canForward}>
        Step forward ▶
      </button>
      <SpeedControl speed={speed} onChange={setSpeed} />
      <button type="button" className={styles.close} onClick={onClose} aria-label="Close time playback">
        ×
      </button>
    </div>
  );
}
