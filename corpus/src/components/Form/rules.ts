export type RuleType = 'string' | 'number' | 'boolean' | 'email' | 'url' | 'array' | 'date';

export interface Rule {
    /** The value must not be empty (`undefined`, `null`, `''` or `[]`). */
    required?: boolean;
    /** Expected type of the value. */
    type?: RuleType;
    /** Minimum length for strings and arrays, minimum value for numbers. */
    min?: number;
    /** Maximum length for strings and arrays, maximum value for numbers. */
    max?: number;
    /** Exact length for strings and arrays. */
    len?: number;
    /** The string must match this expression. */
    pattern?: RegExp;
    /** Treat strings made only of whitespace as empty. */
    whitespace?: boolean;
    /** Message shown when the rule fails. */
    message?: string;
    /**
     * Custom check. Return `true` (or resolve) to pass; return `false` or a
     * string, or reject, to fail. A returned string replaces `message`.
     */
    validator?: (value: unknown, values: Record<string, unknown>) => boolean | string | void | Promise<unknown>;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const URL_PATTERN = /^(https?:)?\/\/[^\s/$.?#].[^\s]*$/i;

export const isEmptyValue = (value: unknown, whitespace = false): boolean =>
    value === undefined ||
    value === null ||
    (typeof value === 'string' && (whitespace ? value.trim() === '' : value === '')) ||
    (Array.isArray(value) && value.length === 0);

function checkType(value: unknown, type: RuleType): boolean {
    switch (type) {
        case 'string':
            return typeof value === 'string';
        case 'number':
            return typeof value === 'number' && !Number.isNaN(value);
        case 'boolean':
            return typeof value === 'boolean';
        case 'email':
            return typeof value === 'string' && EMAIL.test(value);
        case 'url':
            return typeof value === 'string' && URL_PATTERN.test(value);
        case 'array':
            return Array.isArray(value);
        case 'date':
            return value instanceof Date && !Number.isNaN(value.getTime());
        default:
            return true;
    }
}

/**
 * Run rules in order and resolve to the first error message, or to
 * `undefined` when every rule passes. Empty values only fail `required`.
 */
export async function runRules(value: unknown, rules: Rule[], values: Record<string, unknown>, label: string): Promise<string | undefined> {
    for (const rule of rules) {
        const empty = isEmptyValue(value, rule.whitespace);
        if (rule.required && empty) {
            return rule.message ?? `${label} is required`;
        }
        if (empty && !rule.validator) {
            continue;
        }
        if (rule.type && !checkType(value, rule.type)) {
            return rule.message ?? `${label} is not a valid ${rule.type}`;
        }
        const size = typeof value === 'number' ? value : typeof value === 'string' || Array.isArray(value) ? value.length : undefined;
        if (size !== undefined) {
            if (rule.len !== undefined && size !== rule.len) {
                return rule.message ?? `${label} must be exactly ${rule.len} long`;
            }
            if (rule.min !== undefined && size < rule.min) {
                return rule.message ?? `${label} must be at least ${rule.min}`;
            }
            if (rule.max !== undefined && size > rule.max) {
                return rule.message ?? `${label} must be at most ${rule.max}`;
            }
        }
        if (rule.pattern && typeof value === 'string' && !rule.pattern.test(value)) {
            return rule.message ?? `${label} has an invalid format`;
        }
        if (rule.validator) {
            try {
                const result = await rule.validator(value, values);
                if (result === false) {
                    return rule.message ?? `${label} is invalid`;
                }
                if (typeof result === 'string' && result) {
                    return result;
                }
            } catch (error) {
                return rule.message ?? (error instanceof Error ? error.message : String(error));
            }
        }
    }
    return undefined;
}
