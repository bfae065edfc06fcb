// autocannon 8 ships no types; this declares only the part of its API the bench uses.
declare module 'autocannon' {
  interface AutocannonOptions {
    url: string;
    connections?: number;
    pipelining?: number;
    duration?: number;
    amount?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
  }
  interface Histogram {
    average: number;
    mean: number;
    p50: number;
    p99: number;
    total: number;
  }
  interface AutocannonResult {
    requests: Histogram;
    latency: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
  }
  function autocannon(options: AutocannonOptions): Promise<AutocannonResult>;
  export default autocannon;
}
