import React from 'react';
import { cls } from '../_utils/classNames';
import { BASE_CLASS_PREFIX } from '../_utils/constants';
import { useControllableState } from '../_utils/useControllableState';

const prefixCls = `${BASE_CLASS_PREFIX}-textarea`;

export interface TextAreaProps extends Omit<React.TextareaHTMLAttributes<HTMLTextAreaElement>, 'value' | 'defaultValue' | 'onChange'> {
    value?: string;
    defaultValue?: string;
    /** Grow with the content. Pass `{ minRows, maxRows }` to bound it. @default false */
    autosize?: boolean | { minRows?: number; maxRows?: number };
    /** Show `current / maxLength` under the text. @default false */
    showCount?: boolean;
    /** @default 'default' */
    status?: 'default' | 'warning' | 'error';
    onChange?: (value: string, event: React.ChangeEvent<HTMLTextAreaElement>) => void;
}

const TextArea = React.forwardRef<HTMLTextAreaElement, TextAreaProps>(function TextArea(props, ref) {
    const { value, defaultValue = '', autosize = false, showCount = false, status = 'default', maxLength, className, style, onChange, ...rest } = props;
    const [text, setText] = useControllableState(value, defaultValue);
    const innerRef = React.useRef<HTMLTextAreaElement>(null);
    React.useImperativeHandle(ref, () => innerRef.current as HTMLTextAreaElement);

    React.useLayoutEffect(() => {
        const node = innerRef.current;
        if (!autosize || !node) {
            return;
        }
        const lineHeight = parseFloat(getComputedStyle(node).lineHeight) || 22;
        const bounds = typeof autosize === 'object' ? autosize : {};
        node.style.height = 'auto';
        const min = (bounds.minRows ?? 1) * lineHeight;
        const max = bounds.maxRows ? bounds.maxRows * lineHeight : Infinity;
        node.style.height = `${Math.min(max, Math.max(min, node.scrollHeight))}px`;
    }, [text, autosize]);

    return (
        <div className={cls(`${prefixCls}-wrapper`, className, { [`${prefixCls}-${status}`]: status !== 'default' })} style={style}>
            <textarea
                {...rest}
                ref={innerRef}
                className={prefixCls}
                value={text}
                maxLength={maxLength}
                aria-invalid={status === 'error' || undefined}
                onChange={(event) => {
                    setText(event.target.value);
                    onChange?.(event.target.value, event);
                }}
            />
            {showCount && maxLength ? <span className={`${prefixCls}-count`}>{`${text.length}/${maxLength}`}</span> : null}
        </div>
    );
});

TextArea.displayName = 'TextArea';

export default TextArea;
