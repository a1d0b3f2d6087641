import React from 'react';
import { cls } from '../_utils/classNames';
import { BASE_CLASS_PREFIX } from '../_utils/constants';
import { FormStore } from './formStore';
import type { FormErrors, FormValues } from './formStore';
import './form.scss';

export const prefixCls = `${BASE_CLASS_PREFIX}-form`;

export type LabelPosition = 'top' | 'left' | 'inset';
export type ValidateTrigger = 'change' | 'blur' | 'submit' | 'mount';

export interface FormApi<V extends FormValues = FormValues> {
    getValue(field: string): any;
    getValues(): V;
    setValue(field: string, value: unknown): void;
    setValues(values: Partial<V>, options?: { isOverride?: boolean }): void;
    getError(field: string): string | undefined;
    setError(field: string, error: string | undefined): void;
    validate(fields?: string[]): Promise<V>;
    reset(fields?: string[]): void;
    submitForm(): void;
    scrollToField(field: string, options?: ScrollIntoViewOptions): void;
    getFieldExist(field: string): boolean;
}

export interface FormContextValue {
    store: FormStore;
    api: FormApi;
    labelPosition: LabelPosition;
    labelAlign: 'left' | 'right';
    labelWidth?: number | string;
    disabled: boolean;
    trigger: ValidateTrigger | ValidateTrigger[];
}

export const FormContext = React.createContext<FormContextValue | null>(null);

export interface FormProps<V extends FormValues = FormValues> {
    /** Initial values of every field, keyed by field path. */
    initValues?: Partial<V>;
    /** `horizontal` puts fields side by side. @default 'vertical' */
    layout?: 'vertical' | 'horizontal';
    /** @default 'top' */
    labelPosition?: LabelPosition;
    /** @default 'left' */
    labelAlign?: 'left' | 'right';
    /** Width of labels when `labelPosition="left"`. */
    labelWidth?: number | string;
    /** Disable every field. @default false */
    disabled?: boolean;
    /** When fields validate. @default 'change' */
    trigger?: ValidateTrigger | ValidateTrigger[];
    /** Scroll to the first invalid field after a failed submit. @default false */
    autoScrollToError?: boolean | ScrollIntoViewOptions;
    /** Receives the form API once, on mount. */
    getFormApi?: (api: FormApi<V>) => void;
    /** Called with the values after a submit passes validation. */
    onSubmit?: (values: V) => void;
    /** Called with the errors after a submit fails validation. */
    onSubmitFail?: (errors: FormErrors, values: V) => void;
    /** Called after `reset`. */
    onReset?: () => void;
    /** Called after any value changes. */
    onValueChange?: (values: V, changedValue: Partial<V>) => void;
    className?: string;
    style?: React.CSSProperties;
    'aria-label'?: string;
    /** Fields, or a function that receives the live form state. */
    children?: React.ReactNode | ((state: { values: V; errors: FormErrors; formApi: FormApi<V> }) => React.ReactNode);
}

export function useFormApi<V extends FormValues = FormValues>(): FormApi<V> {
    const context = React.useContext(FormContext);
    if (!context) {
        throw new Error('[my-design] useFormApi must be used inside <Form>.');
    }
    return context.api as FormApi<V>;
}

export function useFormState<V extends FormValues = FormValues>(): { values: V; errors: FormErrors; touched: Record<string, boolean> } {
    const context = React.useContext(FormContext);
    const store = context?.store;
    const [, forceUpdate] = React.useReducer((count: number) => count + 1, 0);
    React.useEffect(() => store?.subscribe(forceUpdate), [store]);
    return { values: (store?.values ?? {}) as V, errors: store?.errors ?? {}, touched: store?.touched ?? {} };
}

export default function Form<V extends FormValues = FormValues>(props: FormProps<V>) {
    const {
        initValues,
        layout = 'vertical',
        labelPosition = 'top',
        labelAlign = 'left',
        labelWidth,
        disabled = false,
        trigger = 'change',
        autoScrollToError = false,
        getFormApi,
        onSubmit,
        onSubmitFail,
        onReset,
        onValueChange,
        className,
        style,
        children,
    } = props;
    const formRef = React.useRef<HTMLFormElement>(null);
    const [store] = React.useState(() => new FormStore(initValues as FormValues));
    const [, forceUpdate] = React.useReducer((count: number) => count + 1, 0);
    const lastValues = React.useRef(store.values);

    React.useEffect(
        () =>
            store.subscribe(() => {
                if (store.values !== lastValues.current) {
                    const changed = Object.fromEntries(Object.entries(store.values).filter(([key, value]) => lastValues.current[key] !== value));
                    lastValues.current = store.values;
                    onValueChange?.(store.values as V, changed as Partial<V>);
                }
                if (typeof children === 'function') {
                    forceUpdate();
                }
            }),
        [store, onValueChange, children],
    );

    const api = React.useMemo<FormApi<V>>(() => {
        const scrollToField = (field: string, options?: ScrollIntoViewOptions) => {
            const node = formRef.current?.querySelector<HTMLElement>(`[data-field="${CSS.escape(field)}"]`);
            node?.scrollIntoView({ behavior: 'smooth', block: 'center', ...options });
        };
        return {
            getValue: (field) => store.getValue(field),
            getValues: () => store.values as V,
            setValue: (field, value) => store.setValue(field, value),
            setValues: (values, options) => store.setValues(values, options),
            getError: (field) => store.errors[field],
            setError: (field, error) => store.setError(field, error),
            validate: (fields) => store.validate(fields) as Promise<V>,
            reset: (fields) => {
                store.reset(fields);
                onReset?.();
            },
            submitForm: () => formRef.current?.requestSubmit(),
            scrollToField,
            getFieldExist: (field) => store.hasField(field),
        };
    }, [store, onReset]);

    React.useEffect(() => {
        getFormApi?.(api);
        // Only once: the API object is stable for the lifetime of the form.
        // eslint-disable-next-line react-hooks/exhaustive-deps
    }, []);

    const handleSubmit = async (event: React.FormEvent<HTMLFormElement>) => {
        event.preventDefault();
        try {
            const values = await store.validate();
            onSubmit?.(values as V);
        } catch (errors) {
            const errorMap = errors as FormErrors;
            onSubmitFail?.(errorMap, store.values as V);
            const first = Object.keys(errorMap)[0];
            if (autoScrollToError && first) {
                api.scrollToField(first, typeof autoScrollToError === 'object' ? autoScrollToError : undefined);
            }
        }
    };

    const context: FormContextValue = { store, api: api as FormApi, labelPosition, labelAlign, labelWidth, disabled, trigger };

    return (
        <FormContext.Provider value={context}>
            <form
                ref={formRef}
                noValidate
                aria-label={props['aria-label']}
                className={cls(prefixCls, className, `${prefixCls}-${layout}`, `${prefixCls}-label-${labelPosition}`)}
                style={style}
                onSubmit={handleSubmit}
                onReset={(event) => {
                    event.preventDefault();
                    api.reset();
                }}
            >
                {typeof children === 'function' ? children({ values: store.values as V, errors: store.errors, formApi: api }) : children}
            </form>
        </FormContext.Provider>
    );
}
