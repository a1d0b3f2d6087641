import React from 'react';
import { cls } from '../_utils/classNames';
import { BASE_CLASS_PREFIX } from '../_utils/constants';
import { CheckboxGroupContext } from './context';
import './checkbox.scss';

const prefixCls = `${BASE_CLASS_PREFIX}-checkbox`;

export interface CheckboxProps extends Omit<React.InputHTMLAttributes<HTMLInputElement>, 'type' | 'size'> {
    /** Controlled checked state. */
    checked?: boolean;
    /** Initial checked state when uncontrolled. */
    defaultChecked?: boolean;
    /**
     * Show a dash instead of a tick, e.g. for a partially selected list.
     * Does not change `checked`.
     * @default false
     */
    indeterminate?: boolean;
    /** Value reported to a surrounding `Checkbox.Group`. */
    value?: string | number;
    /** Secondary text under the label. */
    extra?: React.ReactNode;
    /** Label. */
    children?: React.ReactNode;
}

const Checkbox = React.forwardRef<HTMLInputElement, CheckboxProps>(function Checkbox(props, ref) {
    const { checked, defaultChecked, indeterminate = false, disabled, value, extra, className, style, children, onChange, ...rest } = props;
    const group = React.useContext(CheckboxGroupContext);
    const innerRef = React.useRef<HTMLInputElement>(null);
    const [innerChecked, setInnerChecked] = React.useState(Boolean(defaultChecked));

    React.useImperativeHandle(ref, () => innerRef.current as HTMLInputElement);

    React.useEffect(() => {
        if (innerRef.current) {
            innerRef.current.indeterminate = indeterminate;
        }
    }, [indeterminate]);

    const inGroup = group !== null && value !== undefined;
    const isChecked = inGroup ? group.value.includes(value) : checked ?? innerChecked;
    const isDisabled = disabled ?? group?.disabled ?? false;

    const handleChange = (event: React.ChangeEvent<HTMLInputElement>) => {
        if (inGroup) {
            group.toggle(value, event.target.checked);
        } else if (checked === undefined) {
            setInnerChecked(event.target.checked);
        }
        onChange?.(event);
    };

    return (
        <label
            className={cls(prefixCls, className, {
                [`${prefixCls}-checked`]: isChecked,
                [`${prefixCls}-indeterminate`]: indeterminate,
                [`${prefixCls}-disabled`]: isDisabled,
            })}
            style={style}
        >
            <input
                {...rest}
                ref={innerRef}
                type="checkbox"
                className={`${prefixCls}-input`}
                checked={isChecked}
                disabled={isDisabled}
                value={value}
                aria-checked={indeterminate ? 'mixed' : isChecked}
                onChange={handleChange}
            />
            <span className={`${prefixCls}-box`} aria-hidden="true" />
            {children !== undefined || extra !== undefined ? (
                <span className={`${prefixCls}-label`}>
                    {children}
                    {extra ? <span className={`${prefixCls}-extra`}>{extra}</span> : null}
                </span>
            ) : null}
        </label>
    );
});

Checkbox.displayName = 'Checkbox';

export default Checkbox;
