import React from 'react';
import { cls } from '../_utils/classNames';
import { KeyCode } from '../_utils/keyCodes';
import { Portal } from '../_utils/Portal';
import { useConfig } from '../_utils/ConfigContext';
import { useControllableState } from '../_utils/useControllableState';
import { useId } from '../_utils/useId';
import { warning } from '../_utils/warning';
import Tag from '../Tag';
import Spin from '../Spin';
import Option, { OptGroup } from './Option';
import type { OptionProps, OptGroupProps } from './Option';
import { BASE_CLASS_PREFIX } from '../_utils/constants';
import './select.scss';

const prefixCls = `${BASE_CLASS_PREFIX}-select`;

export type SelectValue = string | number;

export type SelectSize = 'small' | 'default' | 'large';

export type SelectStatus = 'default' | 'warning' | 'error';

export interface SelectOption {
    /** Value stored in `value` when the option is chosen. */
    value: SelectValue;
    /** Text or node shown in the list and in the trigger. */
    label: React.ReactNode;
    /** Prevent choosing this option. */
    disabled?: boolean;
    /** Extra text matched by the built-in filter, e.g. a pinyin spelling. */
    searchText?: string;
    /** Any additional fields are passed back in `renderOption`. */
    [extra: string]: unknown;
}

export interface SelectOptionGroup {
    /** Group heading. */
    label: React.ReactNode;
    /** Options inside the group. */
    options: SelectOption[];
    key?: React.Key;
}

export type OptionOrGroup = SelectOption | SelectOptionGroup;

export interface RenderOptionProps {
    option: SelectOption;
    selected: boolean;
    focused: boolean;
    disabled: boolean;
    inputValue: string;
}

export interface SelectProps {
    /** Options to choose from. Groups are objects with an `options` array. */
    options?: OptionOrGroup[];
    /** Controlled value. An array when `multiple` is true. */
    value?: SelectValue | SelectValue[] | null;
    /** Initial value when uncontrolled. */
    defaultValue?: SelectValue | SelectValue[] | null;
    /**
     * Allow several values.
     * @default false
     */
    multiple?: boolean;
    /** Text shown when nothing is selected. */
    placeholder?: React.ReactNode;
    /**
     * Show a search input and filter options. A function replaces the
     * built-in label match.
     * @default false
     */
    filter?: boolean | ((inputValue: string, option: SelectOption) => boolean);
    /**
     * Add a clear button when a value is present.
     * @default false
     */
    showClear?: boolean;
    /**
     * Let users add the typed text as a new option.
     * @default false
     */
    allowCreate?: boolean;
    /**
     * Disable the whole control.
     * @default false
     */
    disabled?: boolean;
    /**
     * Show a spinner in the dropdown, e.g. while remote options load.
     * @default false
     */
    loading?: boolean;
    /** @default 'default' */
    size?: SelectSize;
    /** @default 'default' */
    status?: SelectStatus;
    /** In multiple mode, collapse tags after this many into "+N". */
    maxTagCount?: number;
    /** Maximum number of values in multiple mode. */
    max?: number;
    /** Content shown when no option matches. */
    emptyContent?: React.ReactNode;
    /** Content before the selection. */
    prefix?: React.ReactNode;
    /** Content after the selection, before the arrow. */
    suffix?: React.ReactNode;
    /** Controlled open state of the dropdown. */
    open?: boolean;
    /**
     * Keep the dropdown open after choosing an option in multiple mode.
     * @default true
     */
    keepOpenOnSelect?: boolean;
    /** Custom option renderer. */
    renderOption?: (props: RenderOptionProps) => React.ReactNode;
    /** Custom renderer for the chosen value(s) in the trigger. */
    renderSelectedItem?: (option: SelectOption) => React.ReactNode;
    /** Where to mount the dropdown. */
    getPopupContainer?: () => HTMLElement;
    /** Width of the dropdown. `true` matches the trigger width. @default true */
    dropdownMatchSelectWidth?: boolean | number;
    className?: string;
    dropdownClassName?: string;
    style?: React.CSSProperties;
    id?: string;
    'aria-label'?: string;
    'aria-labelledby'?: string;
    /** Called with the new value and the matching option(s). */
    onChange?: (value: SelectValue | SelectValue[] | null, option: SelectOption | SelectOption[] | null) => void;
    /** Called as the user types in the search input. */
    onSearch?: (inputValue: string) => void;
    /** Called when a new option is created with `allowCreate`. */
    onCreate?: (option: SelectOption) => void;
    onOpenChange?: (open: boolean) => void;
    onClear?: () => void;
    onFocus?: (event: React.FocusEvent<HTMLElement>) => void;
    onBlur?: (event: React.FocusEvent<HTMLElement>) => void;
    /** `<Select.Option>` and `<Select.OptGroup>` children, as an alternative to `options`. */
    children?: React.ReactNode;
}

export interface SelectRef {
    focus(): void;
    blur(): void;
    open(): void;
    close(): void;
    clearInput(): void;
}

/* -------------------------------------------------------------------------- */
/*                                   Helpers                                  */
/* -------------------------------------------------------------------------- */

export const isGroup = (item: OptionOrGroup): item is SelectOptionGroup => Array.isArray((item as SelectOptionGroup).options);

/** Read `<Select.Option>` / `<Select.OptGroup>` children into option objects. */
export function optionsFromChildren(children: React.ReactNode): OptionOrGroup[] {
    const result: OptionOrGroup[] = [];
    React.Children.forEach(children, (child) => {
        if (!React.isValidElement(child)) {
            return;
        }
        if (child.type === OptGroup) {
            const { label, children: groupChildren } = child.props as OptGroupProps;
            result.push({
                key: child.key ?? undefined,
                label,
                options: optionsFromChildren(groupChildren).filter((item): item is SelectOption => !isGroup(item)),
            });
            return;
        }
        const { value, label, children: content, disabled, ...rest } = child.props as OptionProps;
        result.push({ ...rest, value, label: label ?? content ?? value, disabled });
    });
    return result;
}

export function flattenOptions(items: OptionOrGroup[]): SelectOption[] {
    return items.reduce<SelectOption[]>((all, item) => (isGroup(item) ? all.concat(item.options) : all.concat(item)), []);
}

function labelToText(label: React.ReactNode): string {
    if (typeof label === 'string' || typeof label === 'number') {
        return String(label);
    }
    if (Array.isArray(label)) {
        return label.map(labelToText).join('');
    }
    if (React.isValidElement(label)) {
        return labelToText((label.props as { children?: React.ReactNode }).children);
    }
    return '';
}

const defaultFilter = (inputValue: string, option: SelectOption): boolean => {
    const needle = inputValue.trim().toLowerCase();
    if (!needle) {
        return true;
    }
    const haystack = `${labelToText(option.label)} ${option.searchText ?? ''}`.toLowerCase();
    return haystack.includes(needle);
};

function filterItems(items: OptionOrGroup[], predicate: (option: SelectOption) => boolean): OptionOrGroup[] {
    const result: OptionOrGroup[] = [];
    for (const item of items) {
        if (isGroup(item)) {
            const options = item.options.filter(predicate);
            if (options.length > 0) {
                result.push({ ...item, options });
            }
        } else if (predicate(item)) {
            result.push(item);
        }
    }
    return result;
}

const toValueArray = (value: SelectValue | SelectValue[] | null | undefined): SelectValue[] =>
    value === null || value === undefined ? [] : Array.isArray(value) ? value : [value];

function highlight(text: string, keyword: string): React.ReactNode {
    if (!keyword) {
        return text;
    }
    const index = text.toLowerCase().indexOf(keyword.toLowerCase());
    if (index === -1) {
        return text;
    }
    return (
        <>
            {text.slice(0, index)}
            <mark className={`${prefixCls}-option-keyword`}>{text.slice(index, index + keyword.length)}</mark>
            {text.slice(index + keyword.length)}
        </>
    );
}

/* -------------------------------------------------------------------------- */
/*                                   Select                                   */
/* -------------------------------------------------------------------------- */

const Select = React.forwardRef<SelectRef, SelectProps>(function Select(props, ref) {
    const {
        options: optionsProp,
        value: valueProp,
        defaultValue,
        multiple = false,
        placeholder,
        filter = false,
        showClear = false,
        allowCreate = false,
        disabled = false,
        loading = false,
        size,
        status = 'default',
        maxTagCount,
        max,
        emptyContent,
        prefix,
        suffix,
        open: openProp,
        keepOpenOnSelect = true,
        renderOption,
        renderSelectedItem,
        getPopupContainer,
        dropdownMatchSelectWidth = true,
        className,
        dropdownClassName,
        style,
        id,
        onChange,
        onSearch,
        onCreate,
        onOpenChange,
        onClear,
        onFocus,
        onBlur,
        children,
    } = props;

    const config = useConfig();
    const locale = { noMatch: 'No results', create: 'Create', loading: 'Loading…', ...config.locale?.Select };
    const mergedSize = size ?? config.size ?? 'default';
    const listboxId = useId(`${prefixCls}-listbox`, id ? `${id}-listbox` : undefined);

    const triggerRef = React.useRef<HTMLDivElement>(null);
    const inputRef = React.useRef<HTMLInputElement>(null);
    const listRef = React.useRef<HTMLUListElement>(null);

    const [createdOptions, setCreatedOptions] = React.useState<SelectOption[]>([]);
    const [inputValue, setInputValue] = React.useState('');
    const [activeIndex, setActiveIndex] = React.useState(-1);
    const [focused, setFocused] = React.useState(false);
    const [triggerWidth, setTriggerWidth] = React.useState<number | undefined>(undefined);

    const [open, setOpen] = useControllableState<boolean>(openProp, false, onOpenChange);
    const [value, setValue] = useControllableState<SelectValue | SelectValue[] | null>(
        valueProp,
        defaultValue ?? (multiple ? [] : null),
    );

    React.useEffect(() => {
        if (optionsProp && children) {
            warning(false, '[my-design] Select: both `options` and children were given; children are ignored.');
        }
    }, [optionsProp, children]);

    const baseItems = React.useMemo<OptionOrGroup[]>(
        () => [...createdOptions, ...(optionsProp ?? optionsFromChildren(children))],
        [createdOptions, optionsProp, children],
    );
    const allOptions = React.useMemo(() => flattenOptions(baseItems), [baseItems]);
    const selectedValues = toValueArray(value);
    const selectedSet = new Set(selectedValues);

    const visibleItems = React.useMemo(() => {
        if (!filter || !inputValue) {
            return baseItems;
        }
        const predicate = typeof filter === 'function' ? (option: SelectOption) => filter(inputValue, option) : (option: SelectOption) => defaultFilter(inputValue, option);
        return filterItems(baseItems, predicate);
    }, [baseItems, filter, inputValue]);

    const visibleOptions = React.useMemo(() => flattenOptions(visibleItems), [visibleItems]);

    const canCreate =
        allowCreate &&
        inputValue.trim() !== '' &&
        !allOptions.some((option) => labelToText(option.label).toLowerCase() === inputValue.trim().toLowerCase());

    const reachedMax = multiple && typeof max === 'number' && selectedValues.length >= max;

    /* ------------------------------ Open state ----------------------------- */

    const openDropdown = React.useCallback(() => {
        if (disabled) {
            return;
        }
        if (triggerRef.current) {
            setTriggerWidth(triggerRef.current.getBoundingClientRect().width);
        }
        setOpen(true);
    }, [disabled, setOpen]);

    const closeDropdown = React.useCallback(() => {
        setOpen(false);
        setActiveIndex(-1);
        if (!multiple) {
            setInputValue('');
        }
    }, [multiple, setOpen]);

    React.useImperativeHandle(
        ref,
        () => ({
            focus: () => (inputRef.current ?? triggerRef.current)?.focus(),
            blur: () => (inputRef.current ?? triggerRef.current)?.blur(),
            open: openDropdown,
            close: closeDropdown,
            clearInput: () => setInputValue(''),
        }),
        [openDropdown, closeDropdown],
    );

    React.useEffect(() => {
        if (!open) {
            return undefined;
        }
        const handleOutside = (event: MouseEvent) => {
            const target = event.target as Node;
            if (triggerRef.current?.contains(target) || listRef.current?.contains(target)) {
                return;
            }
            closeDropdown();
        };
        document.addEventListener('mousedown', handleOutside);
        return () => document.removeEventListener('mousedown', handleOutside);
    }, [open, closeDropdown]);

    React.useEffect(() => {
        if (activeIndex < 0 || !listRef.current) {
            return;
        }
        const node = listRef.current.querySelector<HTMLElement>(`[data-option-index="${activeIndex}"]`);
        node?.scrollIntoView({ block: 'nearest' });
    }, [activeIndex]);

    /* ------------------------------- Changes ------------------------------- */

    const emitChange = (nextValues: SelectValue[]) => {
        const pick = (item: SelectValue) => allOptions.find((option) => option.value === item) ?? { value: item, label: item };
        if (multiple) {
            setValue(nextValues);
            onChange?.(nextValues, nextValues.map(pick));
        } else {
            const next = nextValues.length > 0 ? nextValues[0] : null;
            setValue(next);
            onChange?.(next, next === null ? null : pick(next));
        }
    };

    const selectOption = (option: SelectOption) => {
        if (option.disabled) {
            return;
        }
        if (!multiple) {
            emitChange([option.value]);
            closeDropdown();
            return;
        }
        if (selectedSet.has(option.value)) {
            emitChange(selectedValues.filter((item) => item !== option.value));
        } else if (!reachedMax) {
            emitChange([...selectedValues, option.value]);
        }
        if (filter) {
            setInputValue('');
        }
        if (!keepOpenOnSelect) {
            closeDropdown();
        }
    };

    const createOption = () => {
        const text = inputValue.trim();
        const option: SelectOption = { value: text, label: text };
        setCreatedOptions((prev) => [option, ...prev]);
        onCreate?.(option);
        selectOption(option);
        setInputValue('');
    };

    const removeValue = (item: SelectValue, event?: React.MouseEvent) => {
        event?.stopPropagation();
        emitChange(selectedValues.filter((selected) => selected !== item));
    };

    const clear = (event: React.MouseEvent) => {
        event.stopPropagation();
        setInputValue('');
        emitChange([]);
        onClear?.();
    };

    const handleInputChange = (event: React.ChangeEvent<HTMLInputElement>) => {
        const next = event.target.value;
        setInputValue(next);
        setActiveIndex(0);
        onSearch?.(next);
        if (!open) {
            openDropdown();
        }
    };

    /* ------------------------------ Keyboard ------------------------------- */

    const moveActive = (step: 1 | -1) => {
        const count = visibleOptions.length + (canCreate ? 1 : 0);
        if (count === 0) {
            return;
        }
        let next = activeIndex;
        for (let attempts = 0; attempts < count; attempts += 1) {
            next = (next + step + count) % count;
            const option = visibleOptions[next];
            if (!option || !option.disabled) {
                break;
            }
        }
        setActiveIndex(next);
    };

    const handleKeyDown = (event: React.KeyboardEvent<HTMLElement>) => {
        switch (event.keyCode) {
            case KeyCode.DOWN:
                event.preventDefault();
                if (!open) {
                    openDropdown();
                } else {
                    moveActive(1);
                }
                break;
            case KeyCode.UP:
                event.preventDefault();
                moveActive(-1);
                break;
            case KeyCode.ENTER: {
                if (!open) {
                    openDropdown();
                    break;
                }
                event.preventDefault();
                const option = visibleOptions[activeIndex];
                if (option) {
                    selectOption(option);
                } else if (canCreate && activeIndex === visibleOptions.length) {
                    createOption();
                }
                break;
            }
            case KeyCode.ESC:
                if (open) {
                    event.preventDefault();
                    closeDropdown();
                }
                break;
            case KeyCode.BACKSPACE:
                if (multiple && inputValue === '' && selectedValues.length > 0) {
                    removeValue(selectedValues[selectedValues.length - 1]);
                }
                break;
            case KeyCode.TAB:
                closeDropdown();
                break;
            default:
                break;
        }
    };

    /* ------------------------------- Render -------------------------------- */

    const optionByValue = (item: SelectValue): SelectOption =>
        allOptions.find((option) => option.value === item) ?? { value: item, label: String(item) };

    const renderSelection = () => {
        if (multiple) {
            const shown = typeof maxTagCount === 'number' ? selectedValues.slice(0, maxTagCount) : selectedValues;
            const hiddenCount = selectedValues.length - shown.length;
            return (
                <>
                    {shown.map((item) => {
                        const option = optionByValue(item);
                        return (
                            <Tag
                                key={String(item)}
                                size="small"
                                closable={!disabled}
                                onClose={(event) => removeValue(item, event)}
                                className={`${prefixCls}-tag`}
                            >
                                {renderSelectedItem ? renderSelectedItem(option) : option.label}
                            </Tag>
                        );
                    })}
                    {hiddenCount > 0 ? <Tag size="small" className={`${prefixCls}-tag-rest`}>{`+${hiddenCount}`}</Tag> : null}
                </>
            );
        }
        if (selectedValues.length === 0 || (filter && inputValue)) {
            return null;
        }
        const option = optionByValue(selectedValues[0]);
        return <span className={`${prefixCls}-selection-text`}>{renderSelectedItem ? renderSelectedItem(option) : option.label}</span>;
    };

    const renderOptionNode = (option: SelectOption, index: number) => {
        const selected = selectedSet.has(option.value);
        const isActive = index === activeIndex;
        const optionDisabled = Boolean(option.disabled) || (reachedMax && !selected);
        const content = renderOption
            ? renderOption({ option, selected, focused: isActive, disabled: optionDisabled, inputValue })
            : typeof option.label === 'string'
              ? highlight(option.label, inputValue)
              : option.label;
        return (
            <li
                key={String(option.value)}
                id={`${listboxId}-${index}`}
                role="option"
                aria-selected={selected}
                aria-disabled={optionDisabled || undefined}
                data-option-index={index}
                className={cls(`${prefixCls}-option`, {
                    [`${prefixCls}-option-selected`]: selected,
                    [`${prefixCls}-option-active`]: isActive,
                    [`${prefixCls}-option-disabled`]: optionDisabled,
                })}
                onMouseEnter={() => setActiveIndex(index)}
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => !optionDisabled && selectOption(option)}
            >
                {content}
            </li>
        );
    };

    const renderList = () => {
        if (loading) {
            return (
                <div className={`${prefixCls}-loading`}>
                    <Spin size="small" /> {locale.loading}
                </div>
            );
        }
        let index = -1;
        const nodes: React.ReactNode[] = [];
        visibleItems.forEach((item, position) => {
            if (isGroup(item)) {
                nodes.push(
                    <li key={String(item.key ?? `group-${position}`)} role="presentation" className={`${prefixCls}-group`}>
                        <div className={`${prefixCls}-group-label`}>{item.label}</div>
                        <ul role="group">
                            {item.options.map((option) => {
                                index += 1;
                                return renderOptionNode(option, index);
                            })}
                        </ul>
                    </li>,
                );
            } else {
                index += 1;
                nodes.push(renderOptionNode(item, index));
            }
        });
        if (canCreate) {
            const createIndex = visibleOptions.length;
            nodes.push(
                <li
                    key="__create__"
                    role="option"
                    aria-selected={false}
                    data-option-index={createIndex}
                    className={cls(`${prefixCls}-option`, `${prefixCls}-option-create`, {
                        [`${prefixCls}-option-active`]: activeIndex === createIndex,
                    })}
                    onMouseDown={(event) => event.preventDefault()}
                    onClick={createOption}
                >
                    {`${locale.create} "${inputValue.trim()}"`}
                </li>,
            );
        }
        if (nodes.length === 0) {
            return <div className={`${prefixCls}-empty`}>{emptyContent ?? locale.noMatch}</div>;
        }
        return nodes;
    };

    const dropdownWidth =
        dropdownMatchSelectWidth === true ? triggerWidth : typeof dropdownMatchSelectWidth === 'number' ? dropdownMatchSelectWidth : undefined;

    const rect = triggerRef.current?.getBoundingClientRect();
    const dropdownStyle: React.CSSProperties = {
        minWidth: dropdownWidth,
        position: 'absolute',
        top: rect ? rect.bottom + window.scrollY + 4 : 0,
        left: rect ? rect.left + window.scrollX : 0,
    };

    const showClearButton = showClear && !disabled && (selectedValues.length > 0 || inputValue !== '');

    return (
        <div
            ref={triggerRef}
            id={id}
            style={style}
            role="combobox"
            aria-haspopup="listbox"
            aria-expanded={open}
            aria-controls={listboxId}
            aria-disabled={disabled || undefined}
            aria-invalid={status === 'error' || undefined}
            aria-label={props['aria-label']}
            aria-labelledby={props['aria-labelledby']}
            aria-activedescendant={open && activeIndex >= 0 ? `${listboxId}-${activeIndex}` : undefined}
            tabIndex={filter || disabled ? undefined : 0}
            className={cls(prefixCls, className, `${prefixCls}-${mergedSize}`, {
                [`${prefixCls}-open`]: open,
                [`${prefixCls}-focused`]: focused,
                [`${prefixCls}-disabled`]: disabled,
                [`${prefixCls}-multiple`]: multiple,
                [`${prefixCls}-${status}`]: status !== 'default',
            })}
            onClick={() => (open ? closeDropdown() : openDropdown())}
            onKeyDown={handleKeyDown}
            onFocus={(event) => {
                setFocused(true);
                onFocus?.(event);
            }}
            onBlur={(event) => {
                setFocused(false);
                onBlur?.(event);
            }}
        >
            {prefix ? <span className={`${prefixCls}-prefix`}>{prefix}</span> : null}
            <div className={`${prefixCls}-selection`}>
                {renderSelection()}
                {filter ? (
                    <input
                        ref={inputRef}
                        className={`${prefixCls}-search`}
                        value={inputValue}
                        disabled={disabled}
                        aria-autocomplete="list"
                        onChange={handleInputChange}
                        placeholder={selectedValues.length === 0 && typeof placeholder === 'string' ? placeholder : undefined}
                    />
                ) : null}
                {!filter && selectedValues.length === 0 ? <span className={`${prefixCls}-placeholder`}>{placeholder}</span> : null}
            </div>
            {suffix ? <span className={`${prefixCls}-suffix`}>{suffix}</span> : null}
            {showClearButton ? (
                <button type="button" aria-label="Clear" className={`${prefixCls}-clear`} onClick={clear} />
            ) : (
                <span className={`${prefixCls}-arrow`} aria-hidden="true" />
            )}
            {open ? (
                <Portal getContainer={getPopupContainer}>
                    <ul
                        ref={listRef}
                        id={listboxId}
                        role="listbox"
                        aria-multiselectable={multiple || undefined}
                        className={cls(`${prefixCls}-dropdown`, dropdownClassName)}
                        style={dropdownStyle}
                    >
                        {renderList()}
                    </ul>
                </Portal>
            ) : null}
        </div>
    );
});

Select.displayName = 'Select';

type SelectComponent = typeof Select & {
    Option: typeof Option;
    OptGroup: typeof OptGroup;
};

const ExportedSelect = Select as SelectComponent;
ExportedSelect.Option = Option;
ExportedSelect.OptGroup = OptGroup;

export default ExportedSelect;
