/**
 * Closed forms of the queues the http benchmark builds (response time = wait + service):
 *
 * - M/M/1 (Poisson arrivals at λ, exponential service at μ, one server, FIFO): the response
 *   time is exponential with rate μ − λ (Kleinrock, Queueing Systems I, §3.2).
 * - c replicas behind round-robin: each replica sees every c-th Poisson arrival, an Erlang-c
 *   stream, and is an E_c/M/1 queue; by G/M/1 theory (Kleinrock §6.4) the response time is
 *   exponential with rate μ(1 − σ), σ the root in (0, 1) of σ = A*(μ − μσ), where
 *   A*(s) = (λ / (λ + s))^c is the Laplace transform of the Erlang-c gap (c phases at rate λ).
 * - M/M/c (one queue for c servers, Erlang C): a lower bound for least-outstanding balancing,
 *   which joins the shortest of c separate queues.
 */

/** Response-time distribution: mean and quantile function, seconds. */
export interface ResponseTime {
  mean: number;
  quantile(q: number): number;
}

function exponential(rate: number): ResponseTime {
  return { mean: 1 / rate, quantile: (q) => -Math.log(1 - q) / rate };
}

export function mm1(lambda: number, mu: number): ResponseTime {
  if (lambda >= mu) throw new RangeError('unstable: λ ≥ μ');
  return exponential(mu - lambda);
}

/** c replicas at μ each, round-robin, Poisson arrivals at λ in all. */
export function roundRobin(lambda: number, mu: number, c: number): ResponseTime {
  let sigma = 0.5;
  for (let i = 0; i < 10_000; i++) {
    const next = (lambda / (lambda + mu * (1 - sigma))) ** c;
    if (Math.abs(next - sigma) < 1e-15) break;
    sigma = next;
  }
  return exponential(mu * (1 - sigma));
}

/** M/M/c: P(T > t) = e^{−μt} + C·μ/(cμ − λ − μ)·(e^{−μt} − e^{−(cμ−λ)t}). */
export function mmc(lambda: number, mu: number, c: number): ResponseTime {
  const a = lambda / mu;
  const rho = a / c;
  let sum = 0;
  let term = 1;
  for (let k = 0; k < c; k++) {
    sum += term;
    term *= a / (k + 1);
  }
  const last = term / (1 - rho); // a^c / c! / (1 − ρ)
  const erlangC = last / (sum + last);
  const d = c * mu - lambda;
  // When cμ − λ = μ the two exponentials coincide and the difference quotient becomes t·e^{−μt}.
  const tail = (t: number): number =>
    Math.abs(d - mu) < 1e-9 * mu
      ? Math.exp(-mu * t) * (1 + erlangC * mu * t)
      : Math.exp(-mu * t) + ((erlangC * mu) / (d - mu)) * (Math.exp(-mu * t) - Math.exp(-d * t));
  return {
    mean: 1 / mu + erlangC / d,
    quantile(q) {
      let lo = 0;
      let hi = 100 / mu;
      for (let i = 0; i < 200; i++) {
        const mid = (lo + hi) / 2;
        if (tail(mid) > 1 - q) lo = mid;
        else hi = mid;
      }
      return (lo + hi) / 2;
    },
  };
}
