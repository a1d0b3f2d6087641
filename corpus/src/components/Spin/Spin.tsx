import React from 'react';
import { cls } from '../_utils/classNames';
import { BASE_CLASS_PREFIX } from '../_utils/constants';
import './spin.scss';

const prefixCls = `${BASE_CLASS_PREFIX}-spin`;

export interface SpinProps {
    /**
     * Whether the spinner is shown. With children, toggles the overlay.
     * @default true
     */
    spinning?: boolean;
    /** @default 'default' */
    size?: 'small' | 'default' | 'large';
    /**
     * Wait this many milliseconds before showing the spinner, so that fast
     * operations do not flash.
     * @default 0
     */
    delay?: number;
    /** Text below the spinner. */
    tip?: React.ReactNode;
    /** Replace the default indicator. */
    indicator?: React.ReactNode;
    className?: string;
    style?: React.CSSProperties;
    /** Content to cover while loading. */
    children?: React.ReactNode;
}

function useDelayedFlag(flag: boolean, delay: number): boolean {
    const [value, setValue] = React.useState(flag && delay <= 0);
    React.useEffect(() => {
        if (!flag) {
            setValue(false);
            return undefined;
        }
        if (delay <= 0) {
            setValue(true);
            return undefined;
        }
        const timer = setTimeout(() => setValue(true), delay);
        return () => clearTimeout(timer);
    }, [flag, delay]);
    return value;
}

export default function Spin(props: SpinProps) {
    const { spinning = true, size = 'default', delay = 0, tip, indicator, className, style, children } = props;
    const visible = useDelayedFlag(spinning, delay);

    const spinner = (
        <div className={cls(prefixCls, className, `${prefixCls}-${size}`)} style={children ? undefined : style} role="status" aria-live="polite">
            {indicator ?? (
                <svg className={`${prefixCls}-indicator`} viewBox="0 0 24 24" aria-hidden="true">
                    <circle cx="12" cy="12" r="10" fill="none" strokeWidth="3" />
                </svg>
            )}
            {tip ? <div className={`${prefixCls}-tip`}>{tip}</div> : <span className={`${prefixCls}-sr-only`}>Loading</span>}
        </div>
    );

    if (children === undefined) {
        return visible ? spinner : null;
    }

    return (
        <div className={cls(`${prefixCls}-wrapper`, { [`${prefixCls}-wrapper-active`]: visible })} style={style} aria-busy={visible}>
            {visible ? <div className={`${prefixCls}-overlay`}>{spinner}</div> : null}
            <div className={`${prefixCls}-content`}>{children}</div>
        </div>
    );
}
