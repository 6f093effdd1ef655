import { ScreenPlaceholder } from '../../components/screen-placeholder.tsx';

export default function TestimonialsToolPage() {
  return <ScreenPlaceholder />;
}
