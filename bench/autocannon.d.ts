// Minimal typing for the part of autocannon 9 the benchmarks use.
declare module 'autocannon' {
  interface Result {
    requests: { average: number };
    latency: { p99: number };
    errors: number;
    non2xx: number;
  }
  function autocannon(options: { url: string; connections: number; duration: number }): Promise<Result>;
  export default autocannon;
}
