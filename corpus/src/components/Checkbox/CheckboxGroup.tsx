import React from 'react';
import { cls } from '../_utils/classNames';
import { BASE_CLASS_PREFIX } from '../_utils/constants';
import { useControllableState } from '../_utils/useControllableState';
import Checkbox from './Checkbox';
import { CheckboxGroupContext } from './context';
import type { CheckboxGroupContextValue, CheckboxGroupValue as GroupValue } from './context';

const prefixCls = `${BASE_CLASS_PREFIX}-checkbox-group`;

export interface CheckboxGroupProps {
    /** Controlled checked values. */
    value?: GroupValue[];
    /** Initial checked values when uncontrolled. */
    defaultValue?: GroupValue[];
    /** Disable every checkbox in the group. */
    disabled?: boolean;
    /** @default 'vertical' */
    direction?: 'horizontal' | 'vertical';
    /** Called with the checked values in option order. */
    onChange?: (value: GroupValue[]) => void;
    /** Shortcut for rendering a list of checkboxes. */
    options?: Array<{ label: React.ReactNode; value: GroupValue; disabled?: boolean }>;
    className?: string;
    style?: React.CSSProperties;
    'aria-label'?: string;
    children?: React.ReactNode;
}

export default function CheckboxGroup(props: CheckboxGroupProps) {
    const { value, defaultValue = [], disabled, direction = 'vertical', onChange, options, className, style, children } = props;
    const [current, setCurrent] = useControllableState<GroupValue[]>(value, defaultValue, onChange);

    const context = React.useMemo<CheckboxGroupContextValue>(
        () => ({
            value: current,
            disabled,
            toggle: (item, checked) => setCurrent(checked ? [...current, item] : current.filter((existing) => existing !== item)),
        }),
        [current, disabled, setCurrent],
    );

    return (
        <CheckboxGroupContext.Provider value={context}>
            <div role="group" aria-label={props['aria-label']} className={cls(prefixCls, className, `${prefixCls}-${direction}`)} style={style}>
                {options
                    ? options.map((option) => (
                          <Checkbox key={String(option.value)} value={option.value} disabled={option.disabled}>
                              {option.label}
                          </Checkbox>
                      ))
                    : children}
            </div>
        </CheckboxGroupContext.Provider>
    );
}

