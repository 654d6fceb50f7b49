/** The one line a run found offline prints instead of a failure per app (docs/network.md "Offline"). */
export function offlineLine(): string {
  return 'offline: this machine has no route to the internet, no working DNS, or a proxy that cannot be reached, so no app was checked and nothing changed; run again once the network is up (the timer does so on its own)';
}
