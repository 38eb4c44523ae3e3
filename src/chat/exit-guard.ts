/** Two Ctrl+C within this time leave the chat. */
const EXIT_CONFIRM_MS = 2000;

/**
 * Leaving with Ctrl+C takes two presses: the first arms the guard and says so, a second within
 * EXIT_CONFIRM_MS confirms. During a turn the first one interrupts it and the notice waits until
 * the interrupted turn's last lines have been printed, so it is not buried above them.
 */
export class ExitGuard {
  private armedAt = 0;
  private noticePending = false;

  constructor(
    private readonly tell: () => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether a Ctrl+C now confirms an earlier one. */
  confirms(): boolean {
    return this.now() - this.armedAt < EXIT_CONFIRM_MS;
  }

  /** Counted from when the user is told. */
  arm(): void {
    this.noticePending = false;
    this.armedAt = this.now();
    this.tell();
  }

  /** A first Ctrl+C during a turn: armed now, told by turnEnded. */
  armDuringTurn(): void {
    this.armedAt = this.now();
    this.noticePending = true;
  }

  turnEnded(): void {
    if (this.noticePending) this.arm();
  }
}
