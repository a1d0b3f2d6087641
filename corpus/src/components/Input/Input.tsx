import React from 'react';
import { cls } from '../_utils/classNames';
import { BASE_CLASS_PREFIX } from '../_utils/constants';
import { useConfig } from '../_utils/ConfigContext';
import { useControllableState } from '../_utils/useControllableState';
import './input.scss';

const prefixCls = `${BASE_CLASS_PREFIX}-input`;

export type InputSize = 'small' | 'default' | 'large';
export type InputStatus = 'default' | 'warning' | 'error';

export interface InputProps extends Omit<React.InputHTMLAttributes<HTMLInputElement>, 'size' | 'prefix' | 'value' | 'defaultValue' | 'onChange'> {
    /** Controlled value. */
    value?: string;
    /** Initial value when uncontrolled. */
    defaultValue?: string;
    /** @default 'default' */
    size?: InputSize;
    /** @default 'default' */
    status?: InputStatus;
    /** Content inside the box, before the text. */
    prefix?: React.ReactNode;
    /** Content inside the box, after the text. */
    suffix?: React.ReactNode;
    /** Content outside the box, before it (e.g. `https://`). */
    addonBefore?: React.ReactNode;
    /** Content outside the box, after it (e.g. `.com`). */
    addonAfter?: React.ReactNode;
    /** Show a clear button when there is text. @default false */
    showClear?: boolean;
    /** Show `current / maxLength` after the text. Needs `maxLength`. @default false */
    showCount?: boolean;
    /** `password` adds a button that reveals the text. @default 'text' */
    mode?: 'text' | 'password';
    /** Called with the new string and the native event. */
    onChange?: (value: string, event: React.ChangeEvent<HTMLInputElement>) => void;
    /** Called when Enter is pressed. */
    onEnterPress?: (event: React.KeyboardEvent<HTMLInputElement>) => void;
    /** Called after the clear button empties the input. */
    onClear?: () => void;
    /** Class name of the wrapper. The native input gets `inputClassName`. */
    className?: string;
    inputClassName?: string;
}

const Input = React.forwardRef<HTMLInputElement, InputProps>(function Input(props, ref) {
    const {
        value,
        defaultValue = '',
        size,
        status = 'default',
        prefix,
        suffix,
        addonBefore,
        addonAfter,
        showClear = false,
        showCount = false,
        mode = 'text',
        maxLength,
        disabled,
        readOnly,
        className,
        inputClassName,
        style,
        onChange,
        onEnterPress,
        onClear,
        onKeyDown,
        onFocus,
        onBlur,
        ...rest
    } = props;
    const config = useConfig();
    const mergedSize = size ?? config.size ?? 'default';
    const [text, setText] = useControllableState(value, defaultValue);
    const [focused, setFocused] = React.useState(false);
    const [revealed, setRevealed] = React.useState(false);
    const inputRef = React.useRef<HTMLInputElement>(null);
    React.useImperativeHandle(ref, () => inputRef.current as HTMLInputElement);

    const handleChange = (event: React.ChangeEvent<HTMLInputElement>) => {
        setText(event.target.value);
        onChange?.(event.target.value, event);
    };

    const handleClear = () => {
        const input = inputRef.current;
        setText('');
        if (input) {
            const event = { target: { ...input, value: '' }, currentTarget: input } as unknown as React.ChangeEvent<HTMLInputElement>;
            onChange?.('', event);
            input.focus();
        }
        onClear?.();
    };

    const handleKeyDown = (event: React.KeyboardEvent<HTMLInputElement>) => {
        if (event.key === 'Enter') {
            onEnterPress?.(event);
        }
        onKeyDown?.(event);
    };

    const showClearButton = showClear && !disabled && !readOnly && text.length > 0;

    const box = (
        <div
            className={cls(`${prefixCls}-wrapper`, `${prefixCls}-${mergedSize}`, {
                [`${prefixCls}-focused`]: focused,
                [`${prefixCls}-disabled`]: disabled,
                [`${prefixCls}-${status}`]: status !== 'default',
            }, addonBefore || addonAfter ? undefined : className)}
            style={addonBefore || addonAfter ? undefined : style}
        >
            {prefix ? <span className={`${prefixCls}-prefix`}>{prefix}</span> : null}
            <input
                {...rest}
                ref={inputRef}
                type={mode === 'password' && !revealed ? 'password' : rest.type ?? 'text'}
                className={cls(prefixCls, inputClassName)}
                value={text}
                maxLength={maxLength}
                disabled={disabled}
                readOnly={readOnly}
                aria-invalid={status === 'error' || undefined}
                onChange={handleChange}
                onKeyDown={handleKeyDown}
                onFocus={(event) => {
                    setFocused(true);
                    onFocus?.(event);
                }}
                onBlur={(event) => {
                    setFocused(false);
                    onBlur?.(event);
                }}
            />
            {showClearButton ? <button type="button" aria-label="Clear" className={`${prefixCls}-clear`} onClick={handleClear} /> : null}
            {mode === 'password' ? (
                <button
                    type="button"
                    aria-label={revealed ? 'Hide password' : 'Show password'}
                    aria-pressed={revealed}
                    className={`${prefixCls}-reveal`}
                    onClick={() => setRevealed((prev) => !prev)}
                />
            ) : null}
            {showCount && maxLength ? <span className={`${prefixCls}-count`}>{`${text.length}/${maxLength}`}</span> : null}
            {suffix ? <span className={`${prefixCls}-suffix`}>{suffix}</span> : null}
        </div>
    );

    if (!addonBefore && !addonAfter) {
        return box;
    }

    return (
        <div className={cls(`${prefixCls}-group`, className)} style={style}>
            {addonBefore ? <span className={`${prefixCls}-addon`}>{addonBefore}</span> : null}
            {box}
            {addonAfter ? <span className={`${prefixCls}-addon`}>{addonAfter}</span> : null}
        </div>
    );
});

Input.displayName = 'Input';

export default Input;
