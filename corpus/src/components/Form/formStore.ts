import type { Rule } from './rules';
import { runRules } from './rules';

export type FormValues = Record<string, any>;
export type FormErrors = Record<string, string | undefined>;

export interface FieldMeta {
    rules: Rule[];
    label: string;
    initValue?: unknown;
}

/** Split `a.b[0].c` into `['a', 'b', '0', 'c']`. */
export function toPath(field: string): string[] {
    return field.replace(/\[(\w+)\]/g, '.$1').split('.').filter(Boolean);
}

export function getIn(source: unknown, field: string): any {
    return toPath(field).reduce<any>((current, key) => (current === null || current === undefined ? undefined : current[key]), source);
}

export function setIn<T extends object>(source: T, field: string, value: unknown): T {
    const [head, ...rest] = toPath(field);
    const container: any = Array.isArray(source) ? [...source] : { ...source };
    if (rest.length === 0) {
        container[head] = value;
        return container;
    }
    const child = container[head] ?? (/^\d+$/.test(rest[0]) ? [] : {});
    container[head] = setIn(child, rest.join('.'), value);
    return container;
}

type Listener = () => void;

/**
 * Holds the values, errors and touched state of one Form. Fields subscribe
 * and re-render when any of it changes.
 */
export class FormStore {
    values: FormValues;
    errors: FormErrors = {};
    touched: Record<string, boolean> = {};
    private readonly initial: FormValues;
    private readonly fields = new Map<string, FieldMeta>();
    private readonly listeners = new Set<Listener>();

    constructor(initValues: FormValues = {}) {
        this.initial = initValues;
        this.values = initValues;
    }

    subscribe(listener: Listener): () => void {
        this.listeners.add(listener);
        return () => {
            this.listeners.delete(listener);
        };
    }

    private notify() {
        this.listeners.forEach((listener) => listener());
    }

    register(field: string, meta: FieldMeta): () => void {
        this.fields.set(field, meta);
        if (meta.initValue !== undefined && getIn(this.values, field) === undefined) {
            this.values = setIn(this.values, field, meta.initValue);
        }
        return () => {
            this.fields.delete(field);
        };
    }

    hasField(field: string): boolean {
        return this.fields.has(field);
    }

    getValue(field?: string): any {
        return field === undefined ? this.values : getIn(this.values, field);
    }

    setValue(field: string, value: unknown, options: { touch?: boolean } = {}) {
        this.values = setIn(this.values, field, value);
        if (options.touch !== false) {
            this.touched = { ...this.touched, [field]: true };
        }
        this.notify();
    }

    setValues(values: FormValues, options: { isOverride?: boolean } = {}) {
        this.values = options.isOverride ? values : { ...this.values, ...values };
        this.notify();
    }

    setError(field: string, error: string | undefined) {
        this.errors = { ...this.errors, [field]: error };
        this.notify();
    }

    async validateField(field: string): Promise<string | undefined> {
        const meta = this.fields.get(field);
        if (!meta) {
            return undefined;
        }
        const error = await runRules(this.getValue(field), meta.rules, this.values, meta.label);
        this.setError(field, error);
        return error;
    }

    /**
     * Validate some or all fields. A path also selects every field below it,
     * so `validate(['guests'])` covers `guests[0].name`, `guests[1].email`, ...
     * Resolves with the values, rejects with the errors.
     */
    async validate(fields?: string[]): Promise<FormValues> {
        const registered = Array.from(this.fields.keys());
        const targets = fields
            ? registered.filter((key) => fields.some((field) => key === field || key.startsWith(`${field}.`) || key.startsWith(`${field}[`)))
            : registered;
        const results = await Promise.all(targets.map(async (field) => [field, await this.validateField(field)] as const));
        const failed = results.filter(([, error]) => error !== undefined);
        if (failed.length > 0) {
            throw Object.fromEntries(failed);
        }
        return this.values;
    }

    reset(fields?: string[]) {
        if (!fields) {
            this.values = this.initial;
            this.errors = {};
            this.touched = {};
        } else {
            fields.forEach((field) => {
                this.values = setIn(this.values, field, getIn(this.initial, field) ?? this.fields.get(field)?.initValue);
                this.errors = { ...this.errors, [field]: undefined };
                this.touched = { ...this.touched, [field]: false };
            });
        }
        this.notify();
    }
}
