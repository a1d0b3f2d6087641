import Input from './Input';
import TextArea from './TextArea';

type InputComponent = typeof Input & { TextArea: typeof TextArea };

const ExportedInput = Input as InputComponent;
ExportedInput.TextArea = TextArea;

export default ExportedInput;
export { TextArea };
export type { InputProps, InputSize, InputStatus } from './Input';
export type { TextAreaProps } from './TextArea';
