package duetkit;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * A tiny workload for duetkit's format fixtures. DUETKIT_SLOW=1 makes it about twice as slow,
 * so an end-to-end duet test can show a regression without a second checkout.
 */
@State(Scope.Benchmark)
public class SumsBenchmark {
  private static final int ROUNDS = "1".equals(System.getenv("DUETKIT_SLOW")) ? 2 : 1;

  @Param({"1000"})
  public int n;

  /** Average time per call: smaller is better. */
  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.NANOSECONDS)
  public long sumSquares() {
    long total = 0;
    for (int r = 0; r < ROUNDS; r++) {
      total = 0;
      for (int i = 0; i < n; i++) total += (long) i * i;
    }
    return total;
  }

  /** Calls per millisecond: bigger is better. */
  @Benchmark
  @BenchmarkMode(Mode.Throughput)
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  public String joinWords() {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 64 * ROUNDS; i++) sb.append("w ");
    return sb.toString();
  }
}
