import React from 'react';
import { cls } from '../_utils/classNames';
import { useId } from '../_utils/useId';
import { warning } from '../_utils/warning';
import { FormContext, prefixCls } from './Form';
import type { LabelPosition, ValidateTrigger } from './Form';
import type { Rule } from './rules';

export interface FieldProps {
    /** Path of the value in the form values, e.g. `user.email` or `items[0].qty`. */
    field: string;
    /** Label text. Defaults to the field path. */
    label?: React.ReactNode;
    /** Hide the label but keep it for screen readers. @default false */
    noLabel?: boolean;
    /** Override the form's `labelPosition`. */
    labelPosition?: LabelPosition;
    /** Validation rules, run in order. */
    rules?: Rule[];
    /** Initial value when the form has none for this field. */
    initValue?: unknown;
    /** Override the form's validate trigger. */
    trigger?: ValidateTrigger | ValidateTrigger[];
    /** Helper text under the control. */
    extraText?: React.ReactNode;
    /** Hide the error message but keep the error styling. @default false */
    noErrorMessage?: boolean;
    /** Change the value before it is stored, e.g. trim or parse a number. */
    transform?: (value: any) => any;
    fieldClassName?: string;
    fieldStyle?: React.CSSProperties;
}

interface InjectedProps {
    value?: any;
    onChange?: (...args: any[]) => void;
    onBlur?: (...args: any[]) => void;
    disabled?: boolean;
    status?: 'default' | 'error';
    id?: string;
    'aria-describedby'?: string;
    'aria-invalid'?: boolean;
}

/** The first argument of onChange is the value for my-design controls; unwrap native events for everything else. */
const readValue = (first: any) => (first && typeof first === 'object' && 'target' in first && 'nativeEvent' in first ? (first.target.type === 'checkbox' ? first.target.checked : first.target.value) : first);

/**
 * Connect any control with `value` / `onChange` to the surrounding Form.
 * `Form.Input`, `Form.Select` and the other field components are built with it.
 */
export function withField<P extends InjectedProps>(Control: React.ComponentType<P>, options: { valueProp?: string } = {}) {
    const valueProp = options.valueProp ?? 'value';

    function FieldComponent(props: Omit<P, keyof InjectedProps> & FieldProps & Partial<InjectedProps>) {
        const { field, label, noLabel = false, labelPosition, rules = [], initValue, trigger, extraText, noErrorMessage = false, transform, fieldClassName, fieldStyle, ...rest } = props;
        const context = React.useContext(FormContext);
        const id = useId(`${prefixCls}-field`);
        const [, forceUpdate] = React.useReducer((count: number) => count + 1, 0);

        if (!context) {
            warning(false, `[my-design] Form field "${field}" is rendered outside <Form>.`);
        }

        const store = context?.store;
        const labelText = typeof label === 'string' ? label : field;
        const triggers = ([] as ValidateTrigger[]).concat(trigger ?? context?.trigger ?? 'change');

        React.useEffect(() => store?.register(field, { rules, label: labelText, initValue }), [store, field, labelText, initValue, rules]);
        React.useEffect(() => store?.subscribe(forceUpdate), [store]);
        React.useEffect(() => {
            if (triggers.includes('mount')) {
                void store?.validateField(field);
            }
            // Validate on mount only.
            // eslint-disable-next-line react-hooks/exhaustive-deps
        }, []);

        const error = store?.errors[field];
        const position = labelPosition ?? context?.labelPosition ?? 'top';
        const errorId = `${id}-error`;
        const extraId = `${id}-extra`;

        const injected: Record<string, unknown> = {
            [valueProp]: store?.getValue(field),
            id,
            disabled: (rest as InjectedProps).disabled ?? context?.disabled,
            status: error ? 'error' : 'default',
            'aria-invalid': Boolean(error) || undefined,
            'aria-describedby': [error && !noErrorMessage ? errorId : '', extraText ? extraId : ''].filter(Boolean).join(' ') || undefined,
            onChange: (...args: any[]) => {
                const raw = readValue(args[0]);
                store?.setValue(field, transform ? transform(raw) : raw);
                if (triggers.includes('change')) {
                    void store?.validateField(field);
                }
                (rest as InjectedProps).onChange?.(...args);
            },
            onBlur: (...args: any[]) => {
                if (triggers.includes('blur')) {
                    void store?.validateField(field);
                }
                (rest as InjectedProps).onBlur?.(...args);
            },
        };

        const required = rules.some((rule) => rule.required);

        return (
            <div
                data-field={field}
                className={cls(`${prefixCls}-field`, fieldClassName, `${prefixCls}-field-label-${position}`, { [`${prefixCls}-field-error`]: Boolean(error) })}
                style={fieldStyle}
            >
                <label
                    htmlFor={id}
                    className={cls(`${prefixCls}-field-label`, { [`${prefixCls}-field-label-hidden`]: noLabel, [`${prefixCls}-field-label-required`]: required })}
                    style={position === 'left' ? { width: context?.labelWidth, textAlign: context?.labelAlign } : undefined}
                >
                    {label ?? field}
                </label>
                <div className={`${prefixCls}-field-main`}>
                    <Control {...(rest as unknown as P)} {...(injected as P)} />
                    {error && !noErrorMessage ? (
                        <div id={errorId} role="alert" className={`${prefixCls}-field-error-message`}>
                            {error}
                        </div>
                    ) : null}
                    {extraText ? (
                        <div id={extraId} className={`${prefixCls}-field-extra`}>
                            {extraText}
                        </div>
                    ) : null}
                </div>
            </div>
        );
    }

    FieldComponent.displayName = `Field(${Control.displayName ?? Control.name ?? 'Component'})`;
    return FieldComponent;
}

export interface ArrayFieldProps {
    field: string;
    initValue?: unknown[];
    children: (props: { arrayFields: Array<{ key: string; field: string; remove: () => void }>; add: (item?: unknown) => void }) => React.ReactNode;
}

let arrayKeySeed = 0;

/** Render a dynamic list of fields under one array path. */
export function ArrayField(props: ArrayFieldProps) {
    const { field, initValue = [], children } = props;
    const context = React.useContext(FormContext);
    const store = context?.store;
    const [, forceUpdate] = React.useReducer((count: number) => count + 1, 0);
    const keys = React.useRef<string[]>([]);

    React.useEffect(() => {
        if (store && store.getValue(field) === undefined) {
            store.setValue(field, initValue, { touch: false });
        }
        return store?.subscribe(forceUpdate);
        // eslint-disable-next-line react-hooks/exhaustive-deps
    }, [store, field]);

    const items: unknown[] = store?.getValue(field) ?? initValue;
    while (keys.current.length < items.length) {
        arrayKeySeed += 1;
        keys.current.push(`item-${arrayKeySeed}`);
    }
    keys.current.length = items.length;

    const arrayFields = items.map((_item, index) => ({
        key: keys.current[index],
        field: `${field}[${index}]`,
        remove: () => {
            keys.current.splice(index, 1);
            store?.setValue(field, items.filter((__, position) => position !== index));
        },
    }));

    return <>{children({ arrayFields, add: (item) => store?.setValue(field, [...items, item ?? {}]) })}</>;
}
