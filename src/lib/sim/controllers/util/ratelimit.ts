/**
 * client-go's client-side rate limiter (flowcontrol.NewTokenBucketRateLimiter): every request a
 * controller's clientset sends takes a token; the bucket holds `burst` tokens and refills at
 * `qps`. kube-controller-manager gives each controller its own client with --kube-api-qps 20 and
 * --kube-api-burst 30 (GenericControllerManagerConfiguration defaults). A controller that runs out
 * waits, which is what spreads a 600-replica scale-up over half a minute, and what stops a
 * ReplicaSet from recreating pods a kubelet rejects thousands of times a second.
 */
export const KUBE_API_QPS = 20;
export const KUBE_API_BURST = 30;

/** JSON state of one bucket (kept in the controller's snapshot slice). */
export interface TokenBucketState {
  tokens: number;
  /** Virtual time of the last refill, ms. */
  last: number;
}

export function newTokenBucket(now = 0, burst = KUBE_API_BURST): TokenBucketState {
  return { tokens: burst, last: now };
}

/**
 * Take one token at `now`. Returns 0 when a token was taken, otherwise the milliseconds until the
 * next token (nothing is taken; the caller retries then).
 */
export function takeToken(
  b: TokenBucketState,
  now: number,
  qps = KUBE_API_QPS,
  burst = KUBE_API_BURST
): number {
  const wait = tokenWait(b, now, qps, burst);
  if (wait === 0) b.tokens -= 1;
  return wait;
}

/**
 * Refill the bucket to `now` and return the milliseconds until a token is there (0: one is there
 * now), taking nothing. A takeToken at the same instant refills nothing more.
 */
export function tokenWait(
  b: TokenBucketState,
  now: number,
  qps = KUBE_API_QPS,
  burst = KUBE_API_BURST
): number {
  if (now > b.last) {
    b.tokens = Math.min(burst, b.tokens + ((now - b.last) * qps) / 1000);
    b.last = now;
  }
  if (b.tokens >= 1) return 0;
  // The epsilon keeps floating-point dust (0.98 tokens is 1.0000000000000009 ms short) out.
  return Math.max(1, Math.ceil(((1 - b.tokens) * 1000) / qps - 1e-9));
}
