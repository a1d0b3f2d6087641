const warned = new Set<string>();

/**
 * Print a development-only warning once per message.
 * Does nothing in production builds.
 */
export function warning(condition: boolean, message: string): void {
    if (process.env.NODE_ENV === 'production' || condition || warned.has(message)) {
        return;
    }
    warned.add(message);
    if (typeof console !== 'undefined') {
        console.warn(message);
    }
}

/** Test helper: forget which warnings were already printed. */
export function resetWarned(): void {
    warned.clear();
}
