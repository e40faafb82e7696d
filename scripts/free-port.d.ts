/** A port of 127.0.0.1 that nothing listens on now (the OS's pick), for a server a test or the benchmark starts. */
export declare function freePort(): Promise<number>;
