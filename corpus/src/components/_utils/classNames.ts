export type ClassValue = string | number | null | undefined | false | Record<string, unknown> | ClassValue[];

/**
 * Join class names, skipping falsy values. Objects contribute the keys
 * whose values are truthy.
 *
 * cls('md-btn', { 'md-btn-block': block }, size && `md-btn-${size}`)
 */
export function cls(...values: ClassValue[]): string {
    const result: string[] = [];
    for (const value of values) {
        if (!value) {
            continue;
        }
        if (typeof value === 'string' || typeof value === 'number') {
            result.push(String(value));
        } else if (Array.isArray(value)) {
            const nested = cls(...value);
            if (nested) {
                result.push(nested);
            }
        } else {
            for (const key of Object.keys(value)) {
                if (value[key]) {
                    result.push(key);
                }
            }
        }
    }
    return result.join(' ');
}
