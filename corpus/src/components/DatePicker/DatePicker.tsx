import React from 'react';
import { addMonths, startOfDay } from 'date-fns';
import { cls } from '../_utils/classNames';
import { BASE_CLASS_PREFIX } from '../_utils/constants';
import { useConfig } from '../_utils/ConfigContext';
import { Portal } from '../_utils/Portal';
import { useControllableState } from '../_utils/useControllableState';
import { formatValue, getWeekdayLabels, parseValue } from './calendar';
import MonthGrid from './MonthGrid';
import type { WeekStart } from './calendar';
import './datePicker.scss';

const prefixCls = `${BASE_CLASS_PREFIX}-datepicker`;

export interface DatePreset {
    text: React.ReactNode;
    value: Date | (() => Date);
}

export interface DatePickerProps {
    /** Controlled value. */
    value?: Date | null;
    /** Initial value when uncontrolled. */
    defaultValue?: Date | null;
    /** date-fns pattern used to display and parse the value. @default 'yyyy-MM-dd' */
    format?: string;
    /** @default 'Select date' */
    placeholder?: string;
    /** Return `true` for days that cannot be chosen. */
    disabledDate?: (date: Date) => boolean;
    /** Shortcuts shown next to the calendar. */
    presets?: DatePreset[];
    /** First day of the week, 0 = Sunday. @default 1 */
    weekStartsOn?: WeekStart;
    /** Show a clear button. @default true */
    showClear?: boolean;
    /** @default false */
    disabled?: boolean;
    /** @default 'default' */
    size?: 'small' | 'default' | 'large';
    /** @default 'default' */
    status?: 'default' | 'warning' | 'error';
    /** Controlled open state. */
    open?: boolean;
    onOpenChange?: (open: boolean) => void;
    /** Called with the chosen date and its formatted string. */
    onChange?: (date: Date | null, dateString: string) => void;
    getPopupContainer?: () => HTMLElement;
    className?: string;
    style?: React.CSSProperties;
    'aria-label'?: string;
}

export default function DatePicker(props: DatePickerProps) {
    const {
        value,
        defaultValue = null,
        format = 'yyyy-MM-dd',
        placeholder,
        disabledDate,
        presets,
        weekStartsOn = 1,
        showClear = true,
        disabled = false,
        size,
        status = 'default',
        open,
        onOpenChange,
        onChange,
        getPopupContainer,
        className,
        style,
    } = props;
    const config = useConfig();
    const locale = { placeholder: 'Select date', previousMonth: 'Previous month', nextMonth: 'Next month', ...config.locale?.DatePicker };
    const [selected, setSelected] = useControllableState<Date | null>(value, defaultValue);
    const [isOpen, setOpen] = useControllableState(open, false, onOpenChange);
    const [viewMonth, setViewMonth] = React.useState<Date>(selected ?? new Date());
    const [text, setText] = React.useState(formatValue(selected, format));
    const wrapperRef = React.useRef<HTMLDivElement>(null);

    React.useEffect(() => setText(formatValue(selected, format)), [selected, format]);

    const commit = (date: Date | null) => {
        if (date && disabledDate?.(date)) {
            return;
        }
        const normalized = date ? startOfDay(date) : null;
        setSelected(normalized);
        onChange?.(normalized, formatValue(normalized, format));
    };

    const handleInput = (event: React.ChangeEvent<HTMLInputElement>) => {
        setText(event.target.value);
        const parsed = parseValue(event.target.value, format);
        if (parsed) {
            setViewMonth(parsed);
            commit(parsed);
        }
    };

    const rect = wrapperRef.current?.getBoundingClientRect();
    const weekdays = getWeekdayLabels(weekStartsOn, config.locale?.code ?? 'en-US');

    return (
        <div
            ref={wrapperRef}
            className={cls(prefixCls, className, `${prefixCls}-${size ?? config.size ?? 'default'}`, {
                [`${prefixCls}-open`]: isOpen,
                [`${prefixCls}-disabled`]: disabled,
                [`${prefixCls}-${status}`]: status !== 'default',
            })}
            style={style}
        >
            <input
                className={`${prefixCls}-input`}
                value={text}
                placeholder={placeholder ?? locale.placeholder}
                disabled={disabled}
                aria-label={props['aria-label']}
                aria-haspopup="dialog"
                aria-expanded={isOpen}
                aria-invalid={status === 'error' || undefined}
                onChange={handleInput}
                onFocus={() => setOpen(true)}
                onKeyDown={(event) => event.key === 'Escape' && setOpen(false)}
                onBlur={() => setText(formatValue(selected, format))}
            />
            {showClear && selected && !disabled ? (
                <button type="button" aria-label="Clear" className={`${prefixCls}-clear`} onClick={() => commit(null)} />
            ) : null}
            {isOpen && !disabled ? (
                <Portal getContainer={getPopupContainer}>
                    <div
                        role="dialog"
                        className={`${prefixCls}-panel`}
                        style={{ position: 'absolute', top: rect ? rect.bottom + window.scrollY + 4 : 0, left: rect ? rect.left + window.scrollX : 0 }}
                        onMouseDown={(event) => event.preventDefault()}
                    >
                        {presets && presets.length > 0 ? (
                            <ul className={`${prefixCls}-presets`}>
                                {presets.map((preset, index) => (
                                    <li key={index}>
                                        <button
                                            type="button"
                                            onClick={() => {
                                                commit(typeof preset.value === 'function' ? preset.value() : preset.value);
                                                setOpen(false);
                                            }}
                                        >
                                            {preset.text}
                                        </button>
                                    </li>
                                ))}
                            </ul>
                        ) : null}
                        <div className={`${prefixCls}-calendar`}>
                            <div className={`${prefixCls}-navigation`}>
                                <button type="button" aria-label={locale.previousMonth} onClick={() => setViewMonth((month) => addMonths(month, -1))} />
                                <span aria-live="polite">{formatValue(viewMonth, 'MMMM yyyy')}</span>
                                <button type="button" aria-label={locale.nextMonth} onClick={() => setViewMonth((month) => addMonths(month, 1))} />
                            </div>
                            <MonthGrid
                                month={viewMonth}
                                selected={selected}
                                weekStartsOn={weekStartsOn}
                                weekdays={weekdays}
                                disabledDate={disabledDate}
                                onSelect={(date) => {
                                    commit(date);
                                    setOpen(false);
                                }}
                            />
                        </div>
                    </div>
                </Portal>
            ) : null}
        </div>
    );
}
