export interface Debounced<A extends unknown[]> {
    (...args: A): void;
    cancel(): void;
    flush(): void;
}

/**
 * Delay calls to `fn` until `wait` ms have passed without another call.
 * `this` is preserved, so the result can replace a class method.
 */
export function debounce<A extends unknown[]>(fn: (...args: A) => void, wait: number): Debounced<A> {
    let timer: ReturnType<typeof setTimeout> | null = null;
    let pending: { context: unknown; args: A } | null = null;

    const run = () => {
        timer = null;
        if (pending) {
            const { context, args } = pending;
            pending = null;
            fn.apply(context, args);
        }
    };

    const debounced = function (this: unknown, ...args: A) {
        pending = { context: this, args };
        if (timer !== null) {
            clearTimeout(timer);
        }
        timer = setTimeout(run, wait);
    } as Debounced<A>;

    debounced.cancel = () => {
        if (timer !== null) {
            clearTimeout(timer);
        }
        timer = null;
        pending = null;
    };

    debounced.flush = () => {
        if (timer !== null) {
            clearTimeout(timer);
            run();
        }
    };

    return debounced;
}
